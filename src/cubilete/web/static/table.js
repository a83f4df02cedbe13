// The table page: a WebSocket to /ws/<id>, dice, buttons, scorecard, seats, coach and result.
// Everything shown is rebuilt from the latest state frame, so a reload or a reconnect
// after a server restart puts the page back exactly where the server is.

import { api, el, link, saveName, toast, token, when } from "./api.js";
import { navigate } from "./nav.js";
import { dieSvg } from "./dice.js";
import { renderChances as drawChances } from "./chances.js";
import { sha256Hex, verify } from "./fair.js";
import { renderHints as drawHints } from "./hints.js";
import { apiErrorText, botName, lang, num, pick, t } from "./i18n.js";
import { throwPlaces } from "./replay.js";
import { play as playSound, setSound, soundOn } from "./sound.js";
import { renderTableSheet, slotLabel } from "./sheet.js";
import { renderResult as drawResult } from "./table_end.js";
import { renderJoin as drawJoin } from "./table_join.js";
import { installTableKeys } from "./table_keys.js";

const BACKOFF_MS = [300, 700, 1500, 3000, 5000, 8000];
const PING_MS = 20000;
const ROLL_MS = 450; // how long thrown dice tumble (style.css: die-roll)
const AUTOSIT_KEY = "cubilete-autosit";

/** Ask the table page to sit this browser at `seat` with `name` once it connects (set by the home page). */
export function planAutoSit(id, seat, name) {
  try {
    sessionStorage.setItem(AUTOSIT_KEY, JSON.stringify({ id, seat, name }));
  } catch {
    // the user sits by hand
  }
}

function takeAutoSit(id) {
  try {
    const plan = JSON.parse(sessionStorage.getItem(AUTOSIT_KEY) || "null");
    if (plan && plan.id === id) {
      sessionStorage.removeItem(AUTOSIT_KEY);
      return plan;
    }
  } catch {
    // ignore a broken plan
  }
  return null;
}

export function mount(root, { id }) {
  const myPid = sha256Hex(`player:${token()}`).slice(0, 16);
  const page = {
    table: null,
    you: { seat: null, pid: null },
    st: null,
    held: new Set(),
    heldSig: "",
    pendingVersion: null,
    hint: null,
    hintPending: false,
    fair: null,
    deadlineAt: null,
    joinNames: {},
    joinSig: "",
    autoSit: takeAutoSit(id),
    following: null, // the rematch table this page is going to
    fatal: null,
    win: null, // the last chances to win the server sent: { version, chances, exact }
  };
  let ws = null;
  let attempt = 0;
  let retryTimer = null;
  let pingTimer = null;
  let tickTimer = null;
  let destroyed = false;
  let connected = false;

  // --- layout: built once; sections are refilled by render() ----------------------------
  const $ = {
    title: el("h1", { class: "table-title", "data-testid": "table-title" }),
    round: el("span", { class: "round", "data-testid": "round" }),
    // house rules: what they change from the preset they are closest to, before anyone sits down
    house: el("div", { class: "house-changes", "data-testid": "house-changes", hidden: true }),
    // a tournament's table: the way back to its standings and next round
    tour: el("p", { class: "tour-back", hidden: true }),
    // a turn-based game: the time per turn, when this turn runs out, and "e-mail me when it is my turn"
    turnBased: el("div", { class: "turn-based", "data-testid": "turn-based", hidden: true }),
    share: el("input", { class: "share-input", readonly: true, "data-testid": "share-link", "aria-label": "" }),
    copy: el("button", { type: "button", class: "btn small ghost", "data-testid": "copy-link" }),
    shareLabel: el("span", { class: "share-label" }),
    conn: el("div", { class: "conn-banner", "data-testid": "conn", role: "status", hidden: true }),
    // no such table: a way home instead of an empty felt
    gone: el("p", { class: "gone", "data-testid": "gone", hidden: true }),
    status: el("p", { class: "status", "data-testid": "status" }),
    // what a screen reader says: the last move and whose turn (the status line would repeat it)
    say: el("div", { class: "sr-only", "data-testid": "announce", "aria-live": "polite", "aria-atomic": "true" }),
    timer: el("span", { class: "timer", "data-testid": "timer", hidden: true }),
    // the last word about a move made for someone ("time's up: a bot played for Beto"), for everyone
    notice: el("p", { class: "notice", "data-testid": "notice", role: "status", hidden: true }),
    // the rules are being solved: the server's own words (es/pt/en) until the tables land
    solving: el("p", { class: "solving", "data-testid": "solving", role: "status", hidden: true }),
    last: el("p", { class: "last", "data-testid": "last" }),
    dice: el("div", { class: "dice-tray", "data-testid": "dice" }),
    buttons: el("div", { class: "actions" }),
    hints: el("div", { class: "hints", "data-testid": "hints", hidden: true }),
    keys: el("p", { class: "keys-help", id: "keys-help", "data-testid": "keys-help", hidden: true }),
    keysToggle: el("button", {
      type: "button", class: "btn small ghost keys-toggle", "data-testid": "keys-toggle",
      "aria-controls": "keys-help", "aria-expanded": "false", "aria-keyshortcuts": "?",
    }),
    chances: el("div", { class: "chances", "data-testid": "chances", hidden: true }),
    join: el("div", { class: "join" }),
    result: el("div", { class: "result-box", "data-testid": "result-box", hidden: true }),
    sheet: el("div", { class: "sheet-box" }),
    commit: el("p", { class: "commitment" }),
    modal: el("div", { class: "modal-backdrop", hidden: true }),
  };
  $.invite = el("div", { class: "share", "data-testid": "invite" }, $.shareLabel, el("div", { class: "share-row" }, $.share, $.copy));
  $.copy.addEventListener("click", copyLink);
  $.keysToggle.addEventListener("click", () => keys.toggleKeys());
  // sounds: off until asked for (aria-pressed says which)
  $.sound = el("button", { type: "button", class: "btn small ghost sound-toggle", "data-testid": "sound-toggle" });
  $.sound.addEventListener("click", () => {
    setSound(!soundOn());
    renderSoundButton();
  });
  function renderSoundButton() {
    $.sound.textContent = soundOn() ? t("table.sound.on") : t("table.sound.off");
    $.sound.setAttribute("aria-pressed", String(soundOn()));
  }
  $.share.addEventListener("focus", () => $.share.select());
  root.replaceChildren(
    el(
      "section",
      { class: "table-page" },
      el(
        "header",
        { class: "table-head" },
        el("div", { class: "title-line" }, $.title, $.round),
        $.tour,
        $.turnBased,
        $.house,
        $.invite,
      ),
      $.conn,
      $.gone,
      el(
        "div",
        { class: "play-area" },
        el(
          "div",
          { class: "felt-col" },
          el(
            "div",
            { class: "felt" },
            el("div", { class: "status-line" }, $.status, $.timer),
            $.say,
            $.notice,
            $.solving,
            $.last,
            $.dice,
            $.buttons,
            $.keysToggle,
            $.sound,
            $.keys,
          ),
          $.chances,
          $.hints,
          $.join,
          $.result,
        ),
        el("div", { class: "sheet-col" }, $.sheet, $.commit),
      ),
      $.modal,
    ),
  );

  // --- connection ---------------------------------------------------------------------
  function connect() {
    if (destroyed) return;
    clearTimeout(retryTimer);
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // the token goes in the first frame, never in the URL (URLs end up in access logs)
    const q = new URLSearchParams({ lang: lang() });
    const sock = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(id)}?${q}`);
    ws = sock;
    sock.addEventListener("open", () => {
      if (sock === ws) sock.send(JSON.stringify({ type: "hello", token: token(), lang: lang() }));
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
    sock.addEventListener("close", (ev) => {
      if (sock !== ws) return;
      connected = false;
      clearInterval(pingTimer);
      page.pendingVersion = null;
      if (destroyed) return;
      if (ev.code === 4404) {
        page.fatal = t("err.notable");
        render();
        return;
      }
      if (ev.code === 4400) {
        page.fatal = t("err.bad-message");
        render();
        return;
      }
      const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
      attempt += 1;
      retryTimer = setTimeout(connect, delay);
      render();
    });
  }

  function send(frame) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      toast(t("table.reconnecting"));
      return false;
    }
    ws.send(JSON.stringify(frame));
    return true;
  }

  function onFrame(frame) {
    switch (frame.type) {
      case "welcome":
        connected = true;
        attempt = 0;
        page.fatal = null;
        page.table = frame.table;
        page.you = frame.you || { seat: null, pid: null };
        // a rematch kept this seat for us while we were away: take it (web/rematch.py)
        if (page.you.held && page.you.seat === null) page.autoSit = { seat: page.you.held.seat, name: page.you.held.name };
        clearInterval(pingTimer);
        pingTimer = setInterval(() => send({ type: "ping" }), PING_MS);
        render();
        break;
      case "state":
        onState(frame);
        break;
      case "presence":
        if (page.st && page.st.seats[frame.seat]) {
          page.st.seats[frame.seat].connected = frame.connected;
          render();
        }
        break;
      case "hint":
        page.hintPending = false;
        page.hint = { exact: frame.exact, advice: frame.advice || [], version: page.st ? page.st.version : null };
        page.hint.to_win = Array.isArray(frame.to_win) ? frame.to_win : [];
        render();
        break;
      case "error":
        page.pendingVersion = null;
        page.hintPending = false;
        toast(errorText(frame));
        render();
        break;
      case "rematch":
        follow(frame.table);
        break;
      case "notice":
        if (frame.notice === "timeout" && page.st && page.st.seats[frame.seat]) {
          $.notice.textContent = t("table.notice.timeout", { name: seatName(frame.seat) });
          $.notice.hidden = false;
        }
        break;
      default:
        break; // pong and anything newer
    }
  }

  function errorText(frame) {
    const key = `err.${frame.code}`;
    const text = t(key);
    return text === key ? t("err.unknown", { message: frame.message }) : text; // a code newer than this page
  }

  function onState(st) {
    const prev = page.st;
    page.st = st;
    if (typeof st.win_chance_exact === "boolean") {
      page.win = { version: st.version, chances: st.seats.map((s) => s.win_chance), exact: st.win_chance_exact };
    }
    // a frame of the same version (someone connected) does not answer our action: stay busy until it is
    if (page.pendingVersion !== st.version) page.pendingVersion = null;
    page.deadlineAt = typeof st.deadline === "number" ? Date.now() + st.deadline * 1000 : null;
    // the dice held come from the server at every new throw or turn; between throws the player's taps stand
    const turn = st.turn || {};
    const sig = `${st.current}|${st.phase}|${turn.throws ?? ""}|${(turn.dice || []).join("")}`;
    if (sig !== page.heldSig) {
      page.heldSig = sig;
      page.held = new Set(st.turn && st.turn.throws > 0 ? st.turn.held || [] : []);
      page.hint = null;
      // a reload keeps the dice this player chose to hold for this very throw (same table, same version)
      const kept = savedHeld(st.version);
      if (kept && myTurn()) {
        const locked = page.table && page.table.rules.locked_holds ? st.turn.held || [] : [];
        page.held = new Set([...locked, ...kept]);
      }
    }
    if (!prev || prev.status !== st.status) page.fair = null;
    maybeAutoSit();
    render();
  }

  function maybeAutoSit() {
    const plan = page.autoSit;
    if (!plan || mySeat() !== null || !page.st) return;
    const seat = page.st.seats[plan.seat];
    page.autoSit = null;
    if (seat && seat.kind === "human" && !seat.name && page.st.status !== "finished") {
      send({ type: "sit", seat: plan.seat, name: plan.name });
    }
  }

  // --- derived facts -------------------------------------------------------------------
  function mySeat() {
    const st = page.st;
    if (st) {
      const mine = st.seats.find((s) => s.pid && s.pid === myPid);
      if (mine) return mine.index;
    }
    return page.you && Number.isInteger(page.you.seat) ? page.you.seat : null;
  }

  function seatName(index) {
    const seat = page.st ? page.st.seats[index] : null;
    if (!seat) return "?";
    if (seat.kind === "bot") return botName(seat.level, seat.name); // in the page's language, never "Strong bot"
    if (seat.name) return seat.name;
    return t("home.seat", { n: index + 1 });
  }

  /** A note under a seat's name: a bot's level, or that a player has no connection now. */
  function seatTag(s) {
    if (s.kind === "bot") return t("table.bottag", { level: t(`level.${s.level}`) });
    if (!s.name) return s.held ? t("table.heldfor", { name: s.held }) : t("table.empty");
    if (s.away) return t("table.away"); // a labelled stand-in plays this seat's turns
    return s.connected === false ? t("table.offline") : "";
  }

  function myTurn() {
    const st = page.st;
    return Boolean(st && st.status === "playing" && mySeat() !== null && st.current === mySeat());
  }

  function busy() {
    return !connected || (page.pendingVersion !== null && page.st && page.pendingVersion === page.st.version);
  }

  // --- actions -------------------------------------------------------------------------
  function act(action) {
    if (!page.st || busy()) return;
    if (send({ type: "act", version: page.st.version, action })) {
      page.pendingVersion = page.st.version;
      render();
    }
  }

  /** Take back this player's last decision (tables of one person against bots; the server says when: st.undo). */
  function undo() {
    if (!page.st || !page.st.undo || busy()) return;
    if (send({ type: "undo", version: page.st.version })) {
      page.pendingVersion = page.st.version;
      render();
    }
  }

  function roll(faceDown) {
    const st = page.st;
    const keep = st.turn && st.turn.throws > 0 ? [...page.held].sort((a, b) => a - b) : [];
    const action = { roll: keep };
    if (faceDown) action.face_down = true;
    act(action);
  }

  function toggle(pos) {
    const st = page.st;
    if (!canHold()) return;
    const locked = page.table.rules.locked_holds && (st.turn.held || []).includes(pos);
    if (locked) return;
    if (page.held.has(pos)) page.held.delete(pos);
    else page.held.add(pos);
    saveHeld();
    renderDice();
    renderButtons();
  }

  // the selection survives a reload of this tab only (sessionStorage), keyed by table and version
  const HELD_KEY = `cubilete.held.${id}`;

  function saveHeld() {
    try {
      sessionStorage.setItem(HELD_KEY, JSON.stringify({ version: page.st.version, held: [...page.held] }));
    } catch {
      // storage disabled: the selection lasts until a reload, as before
    }
  }

  function savedHeld(version) {
    try {
      const saved = JSON.parse(sessionStorage.getItem(HELD_KEY) || "null");
      const n = page.table ? page.table.rules.dice : 0;
      if (!saved || saved.version !== version || !Array.isArray(saved.held)) return null;
      return saved.held.filter((p) => Number.isInteger(p) && p >= 0 && p < n);
    } catch {
      return null;
    }
  }

  function canHold() {
    const st = page.st;
    return myTurn() && st.turn && st.turn.throws > 0 && st.turn.throws < st.turn.allowance && st.phase !== "over";
  }

  function pickSlot(slotId, points, label) {
    if (points === 0) {
      confirmBox(t("table.confirmscratch", { slot: label }), t("table.scratch"), () => act({ score: slotId }));
    } else {
      act({ score: slotId });
    }
  }

  function sit(index) {
    const name = (page.joinNames[index] || "").trim();
    if (name.length < 1 || name.length > 24) {
      toast(t("err.badname"));
      return;
    }
    saveName(name);
    send({ type: "sit", seat: index, name });
  }

  function askHint() {
    if (page.hintPending) return;
    if (send({ type: "hint" })) {
      page.hintPending = true;
      renderButtons();
    }
  }

  /** A new table with the same rules (house rules too), seats, timer and coach. The server sends everyone
   * here a "rematch" frame; each person connected keeps their seat there (it holds their token's hash). */
  async function rematch() {
    try {
      const made = await api.rematch(id);
      follow(made.id);
    } catch (exc) {
      toast(apiErrorText(exc));
    }
  }

  /** Go to the rematch's table (once: the answer and the frame both say where). */
  function follow(table) {
    if (!table || page.following === table) return;
    page.following = table;
    navigate(`/t/${encodeURIComponent(table)}`);
  }

  async function verifyDice() {
    page.fair = { text: t("fair.checking"), ok: null };
    renderResult();
    try {
      const record = await api.record(id);
      const committed = page.table ? page.table.commitment : record.commitment;
      // the record must also carry the commitment published before the first throw
      const res =
        record.commitment && record.commitment !== committed
          ? { ok: false, throws: 0, problem: { kind: "commitment" } }
          : verify(record.seed, committed, record.throws,
              record.dice === "duplicate" ? throwPlaces(record, page.st ? page.st.seats.map((s) => s.card) : null) : null);
      page.fair = { result: res, ok: res.ok };
    } catch (exc) {
      page.fair = { text: apiErrorText(exc), ok: false };
    }
    renderResult();
  }

  async function copyLink() {
    const text = $.share.value;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // clipboard API needs https or localhost: select the text and use the old command
      $.share.select();
      try {
        document.execCommand("copy");
      } catch {
        // nothing more to try; the text stays selected for the user
      }
    }
    toast(t("table.copied"), "info");
  }

  function confirmBox(question, yes, onYes) {
    const close = () => {
      $.modal.hidden = true;
      $.modal.replaceChildren();
    };
    const yesBtn = el(
      "button",
      { type: "button", class: "btn danger", "data-testid": "confirm-yes", onclick: () => (close(), onYes()) },
      yes,
    );
    const noBtn = el(
      "button",
      { type: "button", class: "btn ghost", "data-testid": "confirm-no", onclick: close },
      t("common.cancel"),
    );
    $.modal.replaceChildren(
      el(
        "div",
        { class: "modal", role: "dialog", "aria-modal": "true", "data-testid": "confirm" },
        el("p", {}, question),
        el("div", { class: "modal-buttons" }, noBtn, yesBtn),
      ),
    );
    $.modal.hidden = false;
    yesBtn.focus();
  }

  const keys = installTableKeys(page, $, {
    mySeat, myTurn, undo, toggle, act, canHold,
    hold: (faces) => {
      page.held = new Set(faces);
      saveHeld(); // a reload keeps them, as a tap would
      renderDice();
    },
  });

  // --- rendering -----------------------------------------------------------------------
  function render() {
    const st = page.st;
    const table = page.table;
    $.shareLabel.textContent = t("table.share");
    $.share.setAttribute("aria-label", t("table.share"));
    $.share.value = `${location.origin}/t/${id}`;
    $.copy.textContent = t("table.copy");
    if (page.fatal) {
      $.conn.hidden = false;
      $.conn.textContent = page.fatal;
      $.conn.className = "conn-banner fatal";
    } else if (!connected) {
      $.conn.hidden = false;
      $.conn.textContent = st ? t("table.reconnecting") : t("table.connecting");
      $.conn.className = "conn-banner";
    } else {
      $.conn.hidden = true;
    }
    const gone = Boolean(page.fatal) && !table;
    $.gone.hidden = !gone;
    $.gone.replaceChildren(...(gone ? [link("/", t("nav.new"), { class: "btn primary", "data-testid": "gone-home" })] : []));
    root.querySelector(".play-area").hidden = gone;
    // a seated player in a game in play: phones lay the table out to fit one screen
    root.firstChild.classList.toggle("in-game", Boolean(st && st.status === "playing" && mySeat() !== null));
    // the invite is for a table that exists and still has a game to join or watch
    $.invite.hidden = Boolean(page.fatal) || !table || (st && st.status === "finished");
    if (!table || !st) {
      $.status.textContent = page.fatal ? "" : t("common.loading");
      return;
    }
    $.title.textContent = pick(table.rules.title, table.rules.name);
    // "your turn" in the tab's title: a player in another tab sees it is their move
    const turnMark = myTurn() ? `(${t("table.tab.yourturn")}) ` : "";
    document.title = `${turnMark}${pick(table.rules.title, table.rules.name)} · ${t("app.title")}`;
    renderHouse(st.status === "finished" ? null : table.rules.house); // what matters before playing, not after
    renderTurnBased(table, st);
    $.tour.hidden = !st.tournament;
    $.tour.replaceChildren(...(st.tournament
      ? [link(`/tournaments/${encodeURIComponent(st.tournament)}`, t("table.tournament"), { class: "btn small ghost", "data-testid": "tournament-link" })]
      : []));
    $.keysToggle.textContent = `${t("table.keys.button")} (?)`;
    $.keysToggle.hidden = st.status !== "playing" || mySeat() === null;
    $.sound.hidden = st.status === "finished" || mySeat() === null; // a phone turns it on while waiting
    renderSoundButton();
    $.keys.textContent = t("table.keys", { n: table.rules.dice });
    const showRound = st.status === "playing" && st.phase === "play" && st.rounds && st.round > 0;
    $.round.textContent = showRound ? t("table.round", { n: Math.min(st.round, st.rounds), m: st.rounds }) : "";
    $.commit.replaceChildren(
      el("span", { class: "commit-label" }, `${t("table.commitment")}: `),
      el("code", { "data-testid": "commitment" }, table.commitment),
    );
    renderStatus();
    renderLast();
    renderSay();
    renderDice();
    renderButtons();
    renderChances();
    renderHints();
    renderJoin();
    renderResult();
    renderSheetBox();
  }

  function renderHouse(house) {
    $.house.hidden = !house;
    if (!house) return;
    const changes = pick(house.changes, []);
    const base = pick(house.base_title, house.base);
    $.house.replaceChildren(
      el("p", { class: "house-base" }, t(changes.length ? "table.house" : "table.house.same", { base })),
      changes.length ? el("ul", { class: "house-list" }, changes.map((line) => el("li", {}, line))) : null,
    );
  }

  // built once: a render never takes the caret from someone typing their address
  const turnLine = el("p", { class: "muted", "data-testid": "turn-based-line" });
  let noticeForm = null;

  function renderTurnBased(table, st) {
    const tb = st.turn_based;
    $.turnBased.hidden = !tb || st.status === "finished";
    if ($.turnBased.hidden) return;
    const per = tb.hours % 24 === 0
      ? t("table.turnbased.days", { n: tb.hours / 24 })
      : t("table.turnbased.hours", { n: num(tb.hours, tb.hours % 1 ? 1 : 0) });
    turnLine.textContent = `${t("table.turnbased")}: ${per}` +
      (tb.deadline ? ` · ${t("table.turnbased.until", { when: when(tb.deadline, lang()) })}` : "");
    if (!turnLine.isConnected) $.turnBased.append(turnLine);
    if (table.notices && mySeat() !== null && !noticeForm) {
      const input = el("input", { id: "notice-email", type: "email", maxlength: "254", autocomplete: "email",
        "data-testid": "notice-email", placeholder: "ana@example.org" });
      noticeForm = el("form", {
        class: "notice-form",
        novalidate: true,
        onsubmit: async (ev) => {
          ev.preventDefault();
          try {
            const done = await api.setNotices(id, input.value.trim() || null);
            toast(done.email ? t("table.notices.on", { email: done.email }) : t("table.notices.off"), "ok");
          } catch (exc) {
            toast(apiErrorText(exc));
          }
        },
      }, el("label", { for: "notice-email" }, t("table.notices")), " ", input, " ",
      el("button", { type: "submit", class: "btn small", "data-testid": "notice-save" }, t("table.notices.save")));
      $.turnBased.append(noticeForm);
    }
  }

  function renderStatus() {
    const st = page.st;
    let text;
    if (st.status === "waiting") text = t("table.status.waiting");
    else if (st.ended === "abandoned") text = t("table.status.abandoned");
    else if (st.status === "finished" || st.phase === "over") text = t("table.status.over");
    else if (st.seats[st.current] && st.seats[st.current].away) {
      text = t("table.status.standin", { name: seatName(st.current) }); // "playing for Ana while away"
    }
    else {
      const turn = st.turn || { throws: 0, allowance: 0 };
      const mine = myTurn();
      const params = { name: seatName(st.current), n: turn.throws, m: turn.allowance };
      if (turn.throws === 0) text = mine ? t("table.status.yourturn0") : t("table.status.turn0", params);
      else text = mine ? t("table.status.yourturn", params) : t("table.status.turn", params);
      if (st.phase === "tiebreak") text = t("table.status.tiebreak") + text;
    }
    $.status.textContent = text;
    $.status.classList.toggle("mine", myTurn());
    $.solving.hidden = !st.solving;
    $.solving.textContent = st.solving ? pick(st.solving) : "";
    tick();
  }

  function tick() {
    if (page.deadlineAt === null || !page.st || page.st.status !== "playing") {
      $.timer.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((page.deadlineAt - Date.now()) / 1000));
    $.timer.hidden = false;
    $.timer.textContent = t("table.timer", { s: left });
    $.timer.classList.toggle("urgent", left <= 10);
  }

  function renderLast() {
    const st = page.st;
    const last = st.last;
    if (!last || !last.action) {
      $.last.textContent = "";
      return;
    }
    const name = seatName(last.seat);
    const a = last.action;
    let text = "";
    if ("roll" in a) {
      // the faces kept (the kept dice did not move), never their positions: "apartó 5 5 y tiró"
      const dice = (st.turn && st.turn.dice) || [];
      const kept = (a.roll || []).map((p) => dice[p]).filter((f) => f !== undefined);
      if (a.face_down) text = t("table.last.facedown", { name });
      else if (kept.length) text = t("table.lastkept", { name, kept: kept.join(" ") });
      else text = t("table.last.roll", { name });
      const servida = pick(page.table.rules.servida, "");
      if (st.turn && st.turn.first_throw && servida && page.table.rules.servida_matters) {
        text += ` (${servida})`;
      }
    } else if ("score" in a) {
      const label = slotLabel(page.table.rules, a.score);
      const si = page.table.rules.slots.findIndex((s) => s.slot === a.score);
      const seat = st.seats[last.seat];
      const points = seat && si >= 0 ? seat.card[si] : null;
      text =
        points === 0
          ? t("table.last.scratch", { name, slot: label })
          : t("table.last.score", { name, points: points ?? "?", slot: label });
    } else if ("stand" in a) {
      text = t("table.last.stand", { name });
    }
    $.last.textContent = text;
    if ("score" in a && page.chimed !== undefined && page.chimed !== st.version) playSound("write");
    page.chimed = st.version; // once per move, whatever frames repeat it
  }

  // "Ana threw 1 4 5 1 6. Your turn — throw 1 of 3": set only when it changes, so it is said once
  function renderSay() {
    const st = page.st;
    const last = st.last;
    let move = $.last.textContent;
    if (last && last.action && "roll" in last.action && st.turn && st.turn.dice) {
      move = t("table.say.threw", { name: seatName(last.seat), dice: st.turn.dice.join(" ") });
    }
    const text = [move, $.status.textContent].filter(Boolean).join(". ");
    if ($.say.textContent !== text) $.say.textContent = text;
  }

  function renderDice() {
    const st = page.st;
    const n = page.table.rules.dice;
    const dice = (st.turn && st.turn.dice) || [];
    const clickable = canHold() && !busy();
    // a new throw (the game's throw counter moved): the dice thrown tumble for a moment (never under
    // prefers-reduced-motion: style.css); a re-render in that moment keeps them tumbling
    if (page.seenThrows !== undefined && (st.throws || 0) > page.seenThrows) {
      page.rolledAt = performance.now();
      playSound("throw");
    }
    page.seenThrows = st.throws || 0;
    const tumbling = page.rolledAt !== undefined && performance.now() - page.rolledAt < ROLL_MS;
    const kept = new Set((st.turn && st.turn.held) || []);
    const items = [];
    for (let i = 0; i < n; i++) {
      const face = dice[i] || 0;
      const held = face > 0 && page.held.has(i) && st.status !== "finished";
      const locked = held && page.table.rules.locked_holds && (st.turn.held || []).includes(i);
      let label = face ? t("table.die", { n: i + 1, face: t(`table.face.${face}`) }) : t("table.nodice");
      if (held) label += `, ${t("table.held")}`;
      items.push(
        el(
          "button",
          {
            type: "button",
            class: `die${held ? " held" : ""}${face ? "" : " blank"}${locked ? " locked" : ""}${tumbling && face && !kept.has(i) ? " rolling" : ""}`,
            "data-testid": `die-${i}`,
            "data-face": String(face),
            "aria-pressed": face ? String(held) : null,
            "aria-label": label,
            disabled: !clickable || !face || locked,
            onclick: () => toggle(i),
          },
          dieSvg(face, 64),
          el("span", { class: "held-label", "aria-hidden": "true" }, held ? t("table.held") : ""),
        ),
      );
    }
    $.dice.replaceChildren(...items);
  }

  function renderButtons() {
    const st = page.st;
    const table = page.table;
    const mine = myTurn();
    const idle = !busy();
    const buttons = [];
    if (st.status !== "playing" || mySeat() === null) {
      $.buttons.replaceChildren(); // nothing to press before everyone sits, after the end, or when watching
      return;
    }
    const rollLabel = t("table.roll");
    buttons.push(
      el(
        "button",
        {
          type: "button",
          class: "btn primary big",
          "data-testid": "roll",
          "aria-keyshortcuts": "R Space",
          disabled: !(mine && st.can_roll && idle),
          onclick: () => roll(false),
        },
        rollLabel,
      ),
    );
    if (table.rules.face_down_call) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn big",
            "data-testid": "facedown",
            disabled: !(mine && st.can_roll && idle),
            onclick: () => roll(true),
          },
          t("table.facedown"),
        ),
      );
    }
    if (st.phase === "tiebreak") {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn big",
            "data-testid": "stand",
            disabled: !(mine && st.can_stand && idle),
            onclick: () => act({ stand: true }),
          },
          t("table.stand"),
        ),
      );
    }
    if (table.coach && mySeat() !== null && st.status !== "finished") {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn ghost",
            "data-testid": "hint",
            "aria-keyshortcuts": "H",
            disabled: !(mine && idle) || page.hintPending,
            onclick: askHint,
          },
          t("table.hint"),
        ),
      );
    }
    if (st.undo) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            class: "btn ghost",
            "data-testid": "undo",
            title: t("table.undo.title"),
            "aria-keyshortcuts": "U",
            disabled: !idle,
            onclick: undo,
          },
          t("table.undo"),
        ),
      );
    }
    $.buttons.replaceChildren(...buttons);
  }


  function renderChances() {
    drawChances($.chances, page.st, page.win, seatName);
  }

  function renderHints() {
    drawHints($.hints, page.hint, {
      canHold: canHold(),
      hold: (faces) => {
        page.held = new Set(faces); // exactly the dice the coach keeps
        saveHeld();
        renderDice();
      },
      writable,
      write: (slot) => pickSlot(slot, writable(slot).points, slotLabel(page.table.rules, slot)),
    });
  }

  function renderResult() {
    drawResult($.result, page.st, {
      id, rules: page.table?.rules, fair: page.fair, me: mySeat(), match: page.match, seatName,
      verify: verifyDice, rematch,
      askMatch: () => {
        page.match = null; // asked once
        api.match(id).then((m) => {
          page.match = m;
          renderResult();
        }).catch(() => {});
      },
    });
  }

  /** The sheet's entry for a slot this player may write now (its points, 0 for a scratch), else null. */
  function writable(slot) {
    if (!slot || !myTurn() || busy()) return null;
    const entry = (page.st.sheet || []).find((e) => e.slot === slot);
    if (!entry || (entry.state !== "usable" && entry.state !== "scratch-only")) return null;
    return { points: entry.state === "scratch-only" ? 0 : Number(entry.points ?? 0) };
  }


  function renderJoin() {
    drawJoin($.join, page.st, page, mySeat() !== null, sit);
  }

  function renderSheetBox() {
    $.sheet.replaceChildren(
      renderTableSheet(page.table.rules, page.st, {
        me: mySeat(), seatName, seatTag, canPick: myTurn() && !busy(), onPick: pickSlot,
      }),
    );
  }

  // --- life cycle ----------------------------------------------------------------------
  tickTimer = setInterval(tick, 500);
  render();
  connect();

  return {
    rerender() {
      page.joinSig = "";
      page.hint = null; // advice text came in the old language
      render();
      // the server writes hints in the connection's language: reconnect with the new one
      if (ws && connected) {
        const old = ws;
        ws = null;
        connected = false;
        old.close(1000);
        attempt = 0;
        connect();
      }
    },
    destroy() {
      destroyed = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      clearInterval(tickTimer);
      keys.remove();
      if (ws) ws.close(1000);
      ws = null;
    },
  };
}

