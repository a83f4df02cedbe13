// The lobby page: quick match ("Play now"), tables open to anyone, games to watch (a WebSocket to /ws/lobby).

import { api, el, keepingFocus, link, savedName, saveName, toast, token } from "./api.js";
import { apiErrorText, lang, pick, t } from "./i18n.js";
import { navigate } from "./nav.js";
import { planAutoSit } from "./table.js";

const BACKOFF_MS = [500, 1500, 3000, 6000];
const PING_MS = 20000;
const SIZES = [2, 3, 4]; // people a quick match seats together (the server's limit)

export function mount(root) {
  const page = {
    presets: null,
    lobby: null, // {open, live, seeking}: the last list the server pushed
    rules: "generala",
    players: 2,
    name: savedName(),
    seeking: null, // {rules, players} while the server looks for people
    offerBot: false, // nobody came in time: offer a bot instead
    busy: false,
  };
  let ws = null;
  let destroyed = false;
  let attempt = 0;
  let retryTimer = null;
  let pingTimer = null;

  api
    .presets()
    .then((presets) => {
      page.presets = presets;
      render();
    })
    .catch((exc) => toast(apiErrorText(exc)));

  function connect() {
    if (destroyed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(`${proto}//${location.host}/ws/lobby?${new URLSearchParams({ lang: lang() })}`);
    ws = sock;
    sock.addEventListener("open", () => {
      if (sock === ws) sock.send(JSON.stringify({ type: "hello", token: token(), lang: lang() }));
      attempt = 0;
      clearInterval(pingTimer);
      pingTimer = setInterval(() => send({ type: "ping" }), PING_MS);
    });
    sock.addEventListener("message", (ev) => {
      if (sock !== ws) return;
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      onFrame(frame);
    });
    sock.addEventListener("close", () => {
      if (sock !== ws || destroyed) return;
      clearInterval(pingTimer);
      page.seeking = null; // the server forgets a seek whose connection went: seek again after reconnecting
      render();
      retryTimer = setTimeout(connect, BACKOFF_MS[Math.min(attempt++, BACKOFF_MS.length - 1)]);
    });
  }

  function send(frame) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }

  function onFrame(frame) {
    switch (frame.type) {
      case "lobby":
        page.lobby = frame;
        break;
      case "seeking":
        page.seeking = { rules: frame.rules, players: frame.players };
        page.offerBot = false;
        page.busy = false;
        break;
      case "no-match":
        page.offerBot = true;
        break;
      case "cancelled":
        page.seeking = null;
        page.offerBot = false;
        break;
      case "matched":
        page.seeking = null;
        navigate(`/t/${encodeURIComponent(frame.table)}`); // our browser's token holds the seat
        return;
      case "error":
        page.busy = false;
        if (frame.code === "seek-lost" || frame.code === "match-failed") page.seeking = null;
        toast(t(`err.${frame.code}`) === `err.${frame.code}` ? frame.message : t(`err.${frame.code}`));
        break;
      default:
        return; // pong and anything newer
    }
    render();
  }

  function seek(ev) {
    ev.preventDefault();
    const name = page.name.trim();
    if (name.length < 1 || name.length > 24) {
      toast(t("err.badname"));
      return;
    }
    saveName(name);
    page.busy = send({ type: "seek", rules: page.rules, players: page.players, name });
    render();
  }

  async function playBot() {
    const name = page.name.trim();
    const seats = [{ kind: "human" }];
    for (let i = 1; i < (page.seeking ? page.seeking.players : page.players); i++) seats.push({ kind: "bot", level: "casual" });
    send({ type: "cancel" });
    try {
      const made = await api.createTable({ rules: page.seeking ? page.seeking.rules : page.rules, seats });
      planAutoSit(made.id, 0, name);
      if (!destroyed) navigate(made.url || `/t/${made.id}`);
    } catch (exc) {
      toast(apiErrorText(exc));
    }
  }

  function title(rules) {
    const found = (page.presets || []).find((p) => p.name === rules);
    return found ? pick(found.title, rules) : rules;
  }

  function seekForm() {
    if (page.seeking) {
      return el(
        "div",
        { class: "seeking card", "data-testid": "lobby-seeking", role: "status" },
        el("p", {}, t("lobby.seeking", { n: page.seeking.players, rules: title(page.seeking.rules) })),
        page.offerBot
          ? el(
              "p",
              {},
              t("lobby.nobody"),
              " ",
              el("button", { type: "button", class: "btn primary", "data-testid": "lobby-bot", onclick: playBot }, t("lobby.bot")),
            )
          : null,
        el("button", { type: "button", class: "btn ghost", "data-testid": "lobby-cancel", onclick: () => send({ type: "cancel" }) }, t("lobby.cancel")),
      );
    }
    const rules = el(
      "select",
      { id: "lobby-rules", "data-testid": "lobby-rules", onchange: (ev) => (page.rules = ev.target.value) },
      (page.presets || []).map((p) => el("option", { value: p.name, selected: p.name === page.rules }, pick(p.title, p.name))),
    );
    const players = el(
      "select",
      { id: "lobby-players", "data-testid": "lobby-players", onchange: (ev) => (page.players = Number(ev.target.value)) },
      SIZES.map((n) => el("option", { value: String(n), selected: n === page.players }, String(n))),
    );
    const name = el("input", {
      id: "lobby-name",
      type: "text",
      maxlength: "24",
      autocomplete: "nickname",
      "data-testid": "lobby-name",
      value: page.name,
      oninput: (ev) => (page.name = ev.target.value),
    });
    return el(
      "form",
      { class: "create-form", onsubmit: seek, novalidate: true },
      el("div", { class: "field" }, el("label", { for: "lobby-name" }, t("home.name")), name),
      el(
        "div",
        { class: "field-row" },
        el("div", { class: "field" }, el("label", { for: "lobby-rules" }, t("home.rules")), rules),
        el("div", { class: "field" }, el("label", { for: "lobby-players" }, t("lobby.players")), players),
      ),
      el("button", { type: "submit", class: "btn primary big wide", "data-testid": "lobby-seek", disabled: page.busy }, t("home.playnow")),
    );
  }

  function tableList(entries, kind) {
    if (!entries.length) return el("p", { class: "muted", "data-testid": `lobby-${kind}-none` }, t(`lobby.${kind}.none`));
    return el(
      "ul",
      { class: "game-list", "data-testid": `lobby-${kind}` },
      entries.map((e) =>
        el(
          "li",
          { class: "game-card card", "data-testid": `lobby-${kind}-${e.id}` },
          el("div", { class: "game-head" }, el("strong", {}, title(e.rules))),
          el("p", { class: "muted" }, e.players.length ? e.players.join(", ") : t("lobby.nobodyyet")),
          el(
            "p",
            {},
            kind === "open"
              ? t("lobby.openseats", { n: e.open_seats })
              : t("lobby.round", { round: e.round, rounds: e.rounds }),
          ),
          link(`/t/${encodeURIComponent(e.id)}`, t(kind === "open" ? "lobby.join" : "lobby.watch"), {
            class: "btn small",
            "data-testid": `lobby-${kind === "open" ? "join" : "watch"}-${e.id}`,
          }),
        ),
      ),
    );
  }

  const render = keepingFocus(draw);

  function draw() {
    if (destroyed) return;
    document.title = `${t("nav.lobby")} · ${t("app.title")}`;
    const lobby = page.lobby || { open: [], live: [], seeking: [] };
    const demand = (lobby.seeking || []).map((d) =>
      el("li", {}, t("lobby.demand", { n: d.seeking, rules: title(d.rules), players: d.players })),
    );
    root.replaceChildren(
      el(
        "section",
        { class: "list-page lobby" },
        el("h1", {}, t("nav.lobby")),
        el("p", { class: "muted" }, t("lobby.intro")),
        seekForm(),
        demand.length ? el("ul", { class: "muted", "data-testid": "lobby-demand" }, demand) : null,
        el("h2", {}, t("lobby.open")),
        page.lobby ? tableList(lobby.open, "open") : el("p", { class: "loading" }, t("common.loading")),
        el("h2", {}, t("lobby.live")),
        page.lobby ? tableList(lobby.live, "live") : null,
      ),
    );
  }

  render();
  connect();
  return {
    rerender: render,
    destroy() {
      destroyed = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      if (ws) ws.close();
    },
  };
}
