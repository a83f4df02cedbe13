// Tournaments (docs/CLUBS.md): /tournaments lists them and makes one; /tournaments/<id> is a tournament's
// lobby, its rounds' tables (to play or watch) and its standings, drawn again every few seconds while it runs.

import { api, el, keepingFocus, link, savedName, saveName, toast } from "./api.js";
import { apiErrorText, num, pick, shownName, t } from "./i18n.js";
import { actThenLoad, createAndGo } from "./forms.js";

const FORMATS = ["swiss", "round-robin", "knockout"];
const BOT_LEVELS = ["beginner", "casual", "strong", "optimal", "random"];
const TIMERS = [0, 60, 120, 300];
const POLL_MS = 3000;

/** /tournaments: the newest tournaments and the form that makes one. */
export function mountTournaments(root) {
  const page = { list: null, presets: null, busy: false };
  const form = { name: "", rules: "generala", format: "swiss", rounds: 3, size: 2, sameDice: false, timer: 0, startsAt: "" };
  let alive = true;
  Promise.all([api.tournaments(), api.presets()])
    .then(([list, presets]) => {
      page.list = list;
      page.presets = presets;
      if (alive) render();
    })
    .catch((exc) => toast(apiErrorText(exc)));

  async function create(ev) {
    ev.preventDefault();
    const body = { name: form.name.trim(), rules: form.rules, format: form.format, table_size: form.size, same_dice: form.sameDice };
    const club = new URLSearchParams(location.search).get("club"); // made from a club's page: the club's tournament
    if (club) body.club = club;
    if (!body.name) return toast(t("tour.err.name"));
    if (form.format === "swiss") body.rounds = form.rounds;
    if (form.timer) body.timer = form.timer;
    if (form.startsAt) body.starts_at = withOffset(form.startsAt);
    await createAndGo(page, render, () => api.createTournament(body), () => alive);
  }

  const render = keepingFocus(() => {
    document.title = `${t("nav.tournaments")} · ${t("app.title")}`;
    const field = (id, label, control) => el("div", { class: "field" }, el("label", { for: id }, label), control);
    const select = (id, value, options, onchange) =>
      el("select", { id, "data-testid": id, onchange: (ev) => onchange(ev.target.value) },
        options.map(([v, text]) => el("option", { value: String(v), selected: String(v) === String(value) }, text)));
    const createForm = el(
      "form",
      { class: "create-form card", onsubmit: create, novalidate: true, "data-testid": "tour-form" },
      el("h2", {}, t("tour.new")),
      field("tour-name", t("tour.name"), el("input", { id: "tour-name", "data-testid": "tour-name", type: "text", maxlength: "60",
        value: form.name, oninput: (ev) => (form.name = ev.target.value) })),
      el(
        "div",
        { class: "field-row" },
        field("tour-rules", t("home.rules"), select("tour-rules", form.rules,
          (page.presets || []).filter((p) => p.min_players <= 2).map((p) => [p.name, pick(p.title, p.name)]), (v) => (form.rules = v))),
        field("tour-format", t("tour.format"), select("tour-format", form.format,
          FORMATS.map((f) => [f, t(`tour.format.${f}`)]), (v) => {
            form.format = v;
            render();
          })),
      ),
      el(
        "div",
        { class: "field-row" },
        form.format === "swiss"
          ? field("tour-rounds", t("tour.rounds"), el("input", { id: "tour-rounds", "data-testid": "tour-rounds", type: "number", min: "1",
            max: "20", value: String(form.rounds), oninput: (ev) => (form.rounds = Number(ev.target.value) || 1) }))
          : null,
        field("tour-size", t("tour.size"), select("tour-size", form.size, [2, 3, 4].map((n) => [n, String(n)]), (v) => (form.size = Number(v)))),
        field("tour-timer", t("home.timer"), select("tour-timer", form.timer,
          TIMERS.map((s) => [s, s ? t("home.timer.s", { n: s }) : t("home.timer.off")]), (v) => (form.timer = Number(v)))),
      ),
      el("label", { class: "check" }, el("input", { type: "checkbox", "data-testid": "tour-same-dice", checked: form.sameDice,
        onchange: (ev) => (form.sameDice = ev.target.checked) }), ` ${t("tour.samedice")}`),
      field("tour-starts", t("tour.startsat"), el("input", { id: "tour-starts", "data-testid": "tour-starts", type: "datetime-local",
        value: form.startsAt, oninput: (ev) => (form.startsAt = ev.target.value) })),
      el("p", { class: "muted small" }, t("tour.startsat.why")),
      el("button", { type: "submit", class: "btn primary big wide", "data-testid": "tour-create", disabled: page.busy }, t("tour.create")),
    );
    root.replaceChildren(
      el(
        "section",
        { class: "list-page tournaments" },
        el("h1", {}, t("nav.tournaments")),
        el("p", { class: "muted" }, t("tour.intro"), " ", link("/clubs", t("nav.clubs"), { "data-testid": "clubs-link" })),
        page.list === null
          ? el("p", { class: "loading" }, t("common.loading"))
          : page.list.length === 0
            ? el("p", { class: "muted", "data-testid": "tour-none" }, t("tour.none"))
            : el("ul", { class: "game-list", "data-testid": "tour-list" }, page.list.map((x) =>
              el("li", { class: "game-card card" },
                el("div", { class: "game-head" }, link(x.url, x.name), " ", el("span", { class: "badge" }, t(`tour.status.${x.status}`))),
                el("p", { class: "muted" }, `${x.rules ? pick(x.rules) : ""} · ${t(`tour.format.${x.format}`)} · ${t("tour.entrants.n", { n: x.entrants })}`)))),
        createForm,
      ),
    );
  });

  render();
  return { rerender: render, destroy: () => (alive = false) };
}

/** "2026-12-24T21:00" from a datetime-local field, with the browser's offset: "2026-12-24T21:00-03:00". */
function withOffset(local) {
  const minutes = -new Date(local).getTimezoneOffset();
  const sign = minutes >= 0 ? "+" : "-";
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** /tournaments/<id>: one tournament. */
export function mountTournament(root, { id }) {
  const page = { data: null, error: null, name: savedName(), busy: false, level: "casual", count: 1 };
  let alive = true;
  let timer = null;

  async function load() {
    try {
      page.data = await api.tournament(id);
      page.error = null;
    } catch (exc) {
      page.error = apiErrorText(exc);
    }
    if (!alive) return;
    render();
    clearTimeout(timer);
    if (!page.data || page.data.status !== "finished") timer = setTimeout(load, POLL_MS);
  }

  function act(call) {
    return actThenLoad(page, render, call, load);
  }

  const join = (ev) => {
    ev.preventDefault();
    const name = page.name.trim();
    if (name.length < 1 || name.length > 24) return toast(t("err.badname"));
    saveName(name);
    return act(() => api.joinTournament(id, name));
  };

  const render = keepingFocus(() => {
    const d = page.data;
    document.title = `${d ? d.name : t("nav.tournaments")} · ${t("app.title")}`;
    if (page.error && !d) return root.replaceChildren(el("p", { class: "form-error", role: "alert", "data-testid": "tour-error" }, page.error));
    if (!d) return root.replaceChildren(el("p", { class: "loading" }, t("common.loading")));
    const rules = pick(d.rules.title, d.rules.name);
    const roundWords = d.status === "open"
      ? t("tour.status.open")
      : d.rounds_planned
        ? t("tour.round.of", { r: d.round, n: d.rounds_planned })
        : t("tour.round", { r: d.round });
    root.replaceChildren(
      el(
        "section",
        { class: "list-page tournament", "data-testid": "tour-page" },
        el("h1", {}, d.name),
        el("p", { class: "muted", "data-testid": "tour-summary" },
          `${rules} · ${t(`tour.format.${d.format}`)} · ${t("tour.size.n", { n: d.table_size })}${d.same_dice ? ` · ${t("tour.samedice.short")}` : ""}`),
        el("p", { class: "tour-status", "data-testid": "tour-status", role: "status" },
          d.status === "finished" ? t("tour.status.finished") : roundWords,
          d.status === "open" && d.starts_at ? ` · ${t("tour.startsat.when", { when: new Date(d.starts_at * 1000).toLocaleString() })}` : ""),
        d.your_table
          ? el("p", { class: "your-table card" }, t("tour.yourtable"), " ",
            link(`/t/${encodeURIComponent(d.your_table)}`, t("tour.play"), { class: "btn primary", "data-testid": "tour-your-table" }))
          : null,
        d.status === "open" ? openPart(d) : null,
        d.standings.length && d.status !== "open" ? standingsTable(d) : null,
        d.rounds.map((r) => roundPart(d, r)),
        d.status !== "open"
          ? el("p", { class: "muted small" }, t("tour.export"), " ",
            el("a", { href: `/api/tournaments/${encodeURIComponent(id)}/results.csv`, download: "", "data-testid": "tour-csv" }, "CSV"), " · ",
            el("a", { href: `/api/tournaments/${encodeURIComponent(id)}/results.json`, download: "", "data-testid": "tour-json" }, "JSON"))
          : null,
        el("p", {}, link("/tournaments", t("nav.tournaments"), { class: "btn small ghost" })),
      ),
    );
  });

  function openPart(d) {
    const share = el("input", { class: "share-input", readonly: true, value: location.href, "aria-label": t("tour.share"), "data-testid": "tour-share" });
    return el(
      "div",
      { class: "tour-open" },
      el("div", { class: "field" }, el("span", { class: "muted" }, t("tour.share")), share),
      el("h2", {}, t("tour.entrants.n", { n: d.players.length })),
      el("ol", { class: "entrants", "data-testid": "tour-entrants" },
        d.players.map((p) => el("li", {}, shownName(p.name), d.me === p.entrant ? el("strong", {}, ` (${t("tour.you")})`) : ""))),
      d.me === null
        ? el("form", { class: "create-form", onsubmit: join, novalidate: true },
          el("div", { class: "field" }, el("label", { for: "tour-join-name" }, t("home.name")),
            el("input", { id: "tour-join-name", "data-testid": "tour-join-name", type: "text", maxlength: "24", autocomplete: "nickname",
              value: page.name, oninput: (ev) => (page.name = ev.target.value) })),
          el("button", { type: "submit", class: "btn primary", "data-testid": "tour-join", disabled: page.busy }, t("tour.join")))
        : el("button", { type: "button", class: "btn ghost", "data-testid": "tour-leave", disabled: page.busy,
          onclick: () => act(() => api.leaveTournament(id)) }, t("tour.leave")),
      d.organiser ? organiserPart(d) : null,
    );
  }

  function organiserPart(d) {
    return el(
      "div",
      { class: "card organiser", "data-testid": "tour-organiser" },
      el("h2", {}, t("tour.organiser")),
      el("div", { class: "field-row" },
        el("div", { class: "field" }, el("label", { for: "tour-bot-level" }, t("tour.bots")),
          el("select", { id: "tour-bot-level", "data-testid": "tour-bot-level", onchange: (ev) => (page.level = ev.target.value) },
            BOT_LEVELS.map((l) => el("option", { value: l, selected: l === page.level }, t(`level.${l}`))))),
        el("div", { class: "field" }, el("label", { for: "tour-bot-count" }, t("tour.bots.count")),
          el("input", { id: "tour-bot-count", "data-testid": "tour-bot-count", type: "number", min: "1", max: "16", value: String(page.count),
            oninput: (ev) => (page.count = Math.max(1, Math.min(16, Number(ev.target.value) || 1))) })),
        el("button", { type: "button", class: "btn", "data-testid": "tour-add-bots", disabled: page.busy,
          onclick: () => act(() => api.addTournamentBots(id, page.level, page.count)) }, t("tour.bots.add"))),
      el("button", { type: "button", class: "btn primary big wide", "data-testid": "tour-start", disabled: page.busy || d.players.length < 2,
        onclick: () => act(() => api.startTournament(id)) }, t("tour.start")),
      d.players.length < 2 ? el("p", { class: "muted small" }, t("tour.start.few")) : null,
    );
  }

  function standingsTable(d) {
    return el(
      "div",
      { class: "table-scroll" },
      el("table", { class: "board", "data-testid": "tour-standings" },
        el("caption", {}, d.status === "finished" ? t("tour.final") : t("daily.standings")),
        el("thead", {}, el("tr", {},
          el("th", { scope: "col" }, "#"),
          el("th", { scope: "col" }, t("board.name")),
          el("th", { scope: "col", class: "n", title: t("tour.points.why") }, t("tour.points")),
          el("th", { scope: "col", class: "n" }, t("tour.wins")),
          el("th", { scope: "col", class: "n" }, t("tour.total")))),
        el("tbody", {}, d.standings.map((s, i) =>
          el("tr", { "data-testid": `tour-row-${i}`, class: d.me === s.entrant ? "me" : "" },
            el("td", {}, d.status === "finished" && s.place === 1 ? "🏆" : String(s.place)),
            el("td", {}, shownName(s.name),
              s.stand_in_moves ? el("span", { class: "badge", title: t("tour.standin.why"), "data-testid": `tour-standin-${i}` },
                ` ${t("tour.standin", { n: s.stand_in_moves })}`) : null),
            el("td", { class: "n" }, num(s.points, Number.isInteger(s.points) ? 0 : 1)),
            el("td", { class: "n" }, num(s.wins)),
            el("td", { class: "n" }, num(s.total)))))),
    );
  }

  function roundPart(d, r) {
    return el(
      "div",
      { class: "tour-round", "data-testid": `tour-round-${r.round}` },
      el("h2", {}, t("tour.round", { r: r.round })),
      el("ul", { class: "game-list" }, r.tables.map((tb, i) =>
        el("li", { class: "game-card card", "data-testid": `tour-table-${r.round}-${i}` },
          el("div", { class: "game-head" },
            el("strong", {}, tb.bye ? t("tour.bye") : t("tour.table", { n: i + 1 })), " ",
            tb.bye ? null : el("span", { class: "badge" }, t(`tour.table.${tb.status}`) || tb.status)),
          el("p", {}, tb.seats.map((s, k) => [
            k ? " · " : "",
            el("span", { class: s.winner && !tb.bye ? "winner" : "" }, `${s.winner && !tb.bye ? "★ " : ""}${shownName(s.name)}`),
            s.total !== null && s.total !== undefined ? ` ${num(s.total)}` : "",
          ])),
          tb.url
            ? link(tb.status === "finished" ? `/replay/${encodeURIComponent(tb.table)}` : tb.url,
              tb.status === "finished" ? t("games.replay") : d.your_table === tb.table ? t("tour.play") : t("lobby.watch"),
              { class: "btn small", "data-testid": `tour-open-${r.round}-${i}` })
            : null))),
    );
  }

  load();
  return { rerender: render, destroy: () => { alive = false; clearTimeout(timer); } };
}
