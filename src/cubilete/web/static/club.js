// Clubs (docs/CLUBS.md): /clubs makes one; /clubs/<id> is the club: members join by its link, its house
// rules, its standings, tournaments and games. The organiser's secret link (#key=...) is kept in this browser
// and sent as a header, never in an address.

import { api, el, keepingFocus, link, savedName, saveName, toast } from "./api.js";
import { planAutoSit } from "./table.js";
import { apiErrorText, num, pick, t } from "./i18n.js";
import { navigate } from "./nav.js";
import { actThenLoad, createAndGo } from "./forms.js";

const KEY_STORE = "cubilete-club-key:";

function keyFor(id) {
  try {
    return localStorage.getItem(KEY_STORE + id) || "";
  } catch {
    return "";
  }
}

function keepKey(id, key) {
  try {
    localStorage.setItem(KEY_STORE + id, key);
  } catch {
    // a private window: the key works for this visit only
  }
}

/** /clubs: make a club. */
export function mountClubs(root) {
  const form = { name: "", houseName: "", house: "", busy: false };
  let alive = true;

  async function create(ev) {
    ev.preventDefault();
    if (!form.name.trim()) return toast(t("club.err.name"));
    const body = { name: form.name.trim() };
    if (form.house.trim()) body.profiles = [{ name: form.houseName.trim() || t("club.house.default"), toml: form.house }];
    await createAndGo(form, render, () => api.createClub(body), () => alive, (made) => keepKey(made.id, made.key));
  }

  const render = keepingFocus(() => {
    document.title = `${t("nav.clubs")} · ${t("app.title")}`;
    root.replaceChildren(
      el(
        "section",
        { class: "list-page clubs" },
        el("h1", {}, t("nav.clubs")),
        el("p", { class: "muted" }, t("club.intro")),
        el(
          "form",
          { class: "create-form card", onsubmit: create, novalidate: true },
          el("div", { class: "field" }, el("label", { for: "club-name" }, t("club.name")),
            el("input", { id: "club-name", "data-testid": "club-name", type: "text", maxlength: "60", value: form.name,
              oninput: (ev) => (form.name = ev.target.value) })),
          el("details", {}, el("summary", {}, t("club.house")),
            el("div", { class: "field" }, el("label", { for: "club-house-name" }, t("club.house.name")),
              el("input", { id: "club-house-name", "data-testid": "club-house-name", type: "text", maxlength: "40", value: form.houseName,
                oninput: (ev) => (form.houseName = ev.target.value) })),
            el("div", { class: "field" }, el("label", { for: "club-house" }, t("club.house.toml")),
              el("textarea", { id: "club-house", "data-testid": "club-house", rows: "5", spellcheck: "false",
                placeholder: 'base = "generala"\n[box.generala]\nvalue = 80', oninput: (ev) => (form.house = ev.target.value) }, form.house))),
          el("button", { type: "submit", class: "btn primary big wide", "data-testid": "club-create", disabled: form.busy }, t("club.create")),
        ),
      ),
    );
  });

  render();
  return { rerender: render, destroy: () => (alive = false) };
}

/** /clubs/<id>: one club. */
export function mountClub(root, { id }) {
  const fromLink = /(?:^|[#&])key=([A-Za-z0-9_-]{8,128})/.exec(location.hash);
  if (fromLink) {
    keepKey(id, fromLink[1]);
    history.replaceState(null, "", location.pathname); // the key leaves the address bar (and screenshots)
  }
  const key = keyFor(id);
  const page = { c: null, error: null, name: savedName(), rules: "generala", people: 2, presets: [], busy: false };
  let alive = true;

  async function load() {
    try {
      page.c = await api.club(id, key);
    } catch (exc) {
      page.error = apiErrorText(exc);
    }
    if (alive) render();
  }
  api.presets().then((list) => {
    page.presets = list;
    if (alive) render();
  }).catch(() => {});

  function act(call) {
    return actThenLoad(page, render, call, load);
  }

  async function newGame() {
    const c = page.c;
    const house = c.profiles.find((p) => `house:${p.name}` === page.rules);
    const body = { seats: Array.from({ length: page.people }, () => ({ kind: "human" })), coach: false, club: id,
      ...(house ? { profile: house.toml } : { rules: page.rules }) };
    try {
      const made = await api.createTable(body);
      const me = c.members.find((m) => m.name === page.name) || c.members[0];
      planAutoSit(made.id, 0, (me && me.name) || page.name);
      navigate(made.url || `/t/${made.id}`);
    } catch (exc) {
      toast(apiErrorText(exc));
    }
  }

  const render = keepingFocus(() => {
    const c = page.c;
    document.title = `${c ? c.name : t("nav.clubs")} · ${t("app.title")}`;
    if (!c) return root.replaceChildren(page.error ? el("p", { class: "form-error", role: "alert" }, page.error) : el("p", { class: "loading" }, t("common.loading")));
    const joinLink = `${location.origin}/clubs/${id}`;
    root.replaceChildren(
      el(
        "section",
        { class: "list-page club", "data-testid": "club-page" },
        el("h1", { "data-testid": "club-title" }, c.name),
        el("div", { class: "field" }, el("span", { class: "muted" }, t("club.share")),
          el("input", { class: "share-input", readonly: true, value: joinLink, "aria-label": t("club.share"), "data-testid": "club-share" })),
        c.organiser ? organiser(c) : null,
        c.member
          ? el("button", { type: "button", class: "btn small ghost", "data-testid": "club-leave", onclick: () => act(() => api.leaveClub(id)) }, t("club.leave"))
          : el("form", { class: "create-form", novalidate: true, onsubmit: (ev) => {
            ev.preventDefault();
            const name = page.name.trim();
            if (name.length < 1 || name.length > 24) return toast(t("err.badname"));
            saveName(name);
            return act(() => api.joinClub(id, name));
          } },
          el("div", { class: "field" }, el("label", { for: "club-join-name" }, t("home.name")),
            el("input", { id: "club-join-name", "data-testid": "club-join-name", type: "text", maxlength: "24", autocomplete: "nickname",
              value: page.name, oninput: (ev) => (page.name = ev.target.value) })),
          el("button", { type: "submit", class: "btn primary", "data-testid": "club-join", disabled: page.busy }, t("club.join"))),
        c.member || c.organiser ? newGamePart(c) : null,
        el("h2", {}, t("club.standings")),
        el("div", { class: "table-scroll" }, el("table", { class: "board", "data-testid": "club-standings" },
          el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("board.name")),
            el("th", { scope: "col", class: "n" }, t("club.games")), el("th", { scope: "col", class: "n" }, t("tour.wins")),
            el("th", { scope: "col", class: "n" }, t("tour.total")))),
          el("tbody", {}, c.standings.map((s, i) => el("tr", { "data-testid": `club-row-${i}` },
            el("td", {}, String(s.place)), el("td", {}, s.name), el("td", { class: "n" }, num(s.games)),
            el("td", { class: "n" }, num(s.wins)), el("td", { class: "n" }, num(s.total))))))),
        c.profiles.length
          ? [el("h2", {}, t("club.house")), el("ul", { "data-testid": "club-profiles" }, c.profiles.map((p) =>
            el("li", {}, el("strong", {}, p.name), " ", el("span", { class: "muted" }, pick(p.title, p.name)))))]
          : null,
        el("h2", {}, t("nav.tournaments")),
        c.tournaments.length
          ? el("ul", { "data-testid": "club-tournaments" }, c.tournaments.map((x) => el("li", {}, link(x.url, x.name), ` · ${t(`tour.status.${x.status}`)}`)))
          : el("p", { class: "muted" }, t("club.notours")),
        c.member || c.organiser ? link(`/tournaments?club=${encodeURIComponent(id)}`, t("club.newtour"), { class: "btn small", "data-testid": "club-new-tour" }) : null,
        el("h2", {}, t("club.recent")),
        c.games.length
          ? el("ul", { "data-testid": "club-games" }, c.games.map((g) => el("li", {}, link(g.url, g.preset), ` · ${t(`tour.table.${g.status}`)}`)))
          : el("p", { class: "muted" }, t("club.nogames")),
      ),
    );
  });

  function newGamePart(c) {
    const options = [
      ...c.profiles.map((p) => [`house:${p.name}`, `${p.name} (${t("club.house.short")})`]),
      ...page.presets.map((p) => [p.name, pick(p.title, p.name)]),
    ];
    return el(
      "div",
      { class: "card club-new-game" },
      el("h2", {}, t("club.newgame")),
      el("div", { class: "field-row" },
        el("div", { class: "field" }, el("label", { for: "club-game-rules" }, t("home.rules")),
          el("select", { id: "club-game-rules", "data-testid": "club-game-rules", onchange: (ev) => (page.rules = ev.target.value) },
            options.map(([v, text]) => el("option", { value: v, selected: v === page.rules }, text)))),
        el("div", { class: "field" }, el("label", { for: "club-game-people" }, t("lobby.players")),
          el("select", { id: "club-game-people", "data-testid": "club-game-people", onchange: (ev) => (page.people = Number(ev.target.value)) },
            [2, 3, 4].map((n) => el("option", { value: String(n), selected: n === page.people }, String(n)))))),
      el("button", { type: "button", class: "btn primary", "data-testid": "club-new-game", onclick: newGame }, t("club.newgame.go")),
    );
  }

  function organiser(c) {
    return el(
      "div",
      { class: "card organiser", "data-testid": "club-organiser" },
      el("h2", {}, t("tour.organiser")),
      el("p", { class: "muted small" }, t("club.key.why")),
      el("input", { class: "share-input", readonly: true, value: `${location.origin}/clubs/${id}#key=${key}`, "aria-label": t("club.key"), "data-testid": "club-key" }),
      c.members.length
        ? el("ul", { "data-testid": "club-members" }, c.members.map((m) => el("li", {}, m.name, " ",
          el("button", { type: "button", class: "btn small ghost", "data-testid": `club-remove-${m.pid}`,
            onclick: () => act(() => api.clubAct(id, "remove", { pid: m.pid }, key)) }, t("club.remove")))))
        : el("p", { class: "muted" }, t("club.nomembers")),
    );
  }

  load();
  return { rerender: render, destroy: () => (alive = false) };
}
