// The score sheet for real dice (web/sheets.py): people throw their own dice and tap what they threw; the
// server's scorekeeper checks every entry with the engine's rules. /sheet makes one, /sheet/<id> is the
// sheet on every phone that opens the link (one phone passed around, or one each), drawn again when another
// phone types.

import { api, el, keepingFocus, link, savedName, toast } from "./api.js";
import { apiErrorText, lang, num, pick, t } from "./i18n.js";
import { createAndGo } from "./forms.js";

const POLL_MS = 2000;
const REVIEW_TRIES = 20; // each ask waits on the server up to 20 s while it solves the rules (503: ask again)

/**
 * The coach's review of a finished sheet (GET /api/sheets/<id>/review), asked again while the server still
 * solves the rules; ``alive()`` stops the asking when the page is left.
 */
export async function loadSheetReview(id, alive = () => true) {
  for (let tries = 1; ; tries++) {
    try {
      return await api.sheetReview(id, lang());
    } catch (exc) {
      if (exc.status !== 503 || tries >= REVIEW_TRIES || !alive()) throw exc;
    }
  }
}
const MAX_PLAYERS = 8;
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** /sheet: choose the game and the players. */
export function mountSheetNew(root) {
  const form = { presets: null, rules: "generala", players: [savedName() || "", ""], busy: false };
  let alive = true;
  api.presets()
    .then((list) => {
      form.presets = list;
      if (alive) render();
    })
    .catch((exc) => toast(apiErrorText(exc)));

  async function create(ev) {
    ev.preventDefault();
    const players = form.players.map((p) => p.trim());
    if (players.some((p) => !p)) return toast(t("sheet.err.names"));
    await createAndGo(form, render, () => api.createSheet({ rules: form.rules, players }), () => alive);
  }

  const render = keepingFocus(() => {
    document.title = `${t("nav.sheet")} · ${t("app.title")}`;
    root.replaceChildren(
      el(
        "section",
        { class: "list-page sheet-new" },
        el("h1", {}, t("nav.sheet")),
        el("p", { class: "muted" }, t("sheet.intro")),
        el(
          "form",
          { class: "create-form card", onsubmit: create, novalidate: true },
          el("div", { class: "field" }, el("label", { for: "sheet-rules" }, t("home.rules")),
            el("select", { id: "sheet-rules", "data-testid": "sheet-rules", onchange: (ev) => (form.rules = ev.target.value) },
              (form.presets || []).map((p) => el("option", { value: p.name, selected: p.name === form.rules }, pick(p.title, p.name))))),
          el("fieldset", { class: "field" }, el("legend", {}, t("sheet.players")),
            form.players.map((name, i) =>
              el("div", { class: "field-row" },
                el("input", { id: `sheet-player-${i}`, "data-testid": `sheet-player-${i}`, type: "text", maxlength: "24",
                  "aria-label": t("home.seat", { n: i + 1 }), value: name, oninput: (ev) => (form.players[i] = ev.target.value) }),
                form.players.length > 2
                  ? el("button", { type: "button", class: "btn small ghost", "aria-label": t("sheet.remove"), onclick: () => {
                    form.players.splice(i, 1);
                    render();
                  } }, "×")
                  : null)),
            el("button", { type: "button", class: "btn ghost small", "data-testid": "sheet-add", disabled: form.players.length >= MAX_PLAYERS,
              onclick: () => {
                form.players.push("");
                render();
              } }, `+ ${t("sheet.addplayer")}`)),
          el("button", { type: "submit", class: "btn primary big wide", "data-testid": "sheet-create", disabled: form.busy }, t("sheet.create")),
        ),
      ),
    );
  });

  render();
  return { rerender: render, destroy: () => (alive = false) };
}

/** /sheet/<id>: the sheet, the dice being typed, the boxes to tap. */
export function mountSheet(root, { id }) {
  const page = { s: null, error: null, dice: [], throw: 1, preview: null, scratch: null, advice: null, busy: false };
  page.review = null; // the coach's review once the game is over: {version, found} (found null: none to show)
  let alive = true;
  let timer = null;
  let previewSeq = 0;

  async function load() {
    try {
      const s = await api.sheet(id, lang());
      if (!page.s || s.version !== page.s.version || s.chances !== page.s.chances) {
        const moved = page.s && s.version !== page.s.version;
        page.s = s;
        if (moved) resetTyping();
        render();
      }
    } catch (exc) {
      page.error = apiErrorText(exc);
      render();
    }
    clearTimeout(timer);
    if (alive && (!page.s || page.s.phase !== "over" || page.s.chances === null)) timer = setTimeout(load, POLL_MS);
  }

  async function loadReview(version) {
    page.review = { version, found: undefined };
    let found = null;
    try {
      found = await loadSheetReview(id, () => alive);
    } catch {
      found = null; // the review could not be made now: the sheet is shown without it
    }
    if (!alive || !page.review || page.review.version !== version) return;
    page.review = { version, found };
    render();
  }

  /** "on throw 2", or "on throw 1, servida" where the rules count a first-throw hand apart. */
  function onThrow(thrown, servida) {
    return servida ? t("sheet.onthrow.first", { servida: pick(page.s.rules.servida, "servida") }) : t("sheet.onthrow", { n: thrown });
  }

  /** The coach's review at the end: the points each player lost, and the worst entries with their dice. */
  function reviewPart() {
    const r = page.review ? page.review.found : null;
    if (page.review && r === undefined) return el("section", { class: "card review" }, el("h2", {}, t("replay.review")), el("p", { class: "loading" }, t("common.loading")));
    if (!r) return null;
    if (!r.reviewed) return el("section", { class: "card review", "data-testid": "sheet-review" }, el("h2", {}, t("replay.review")), el("p", { class: "muted" }, t("sheet.review.none")));
    return el(
      "section",
      { class: "card review", "data-testid": "sheet-review" },
      el("h2", {}, t("replay.review")),
      el("ul", {}, r.players.map((p) => el("li", {}, t("replay.review.loss", { name: p.name, loss: num(p.loss, 1), n: p.decisions })))),
      r.worst.length
        ? [
            el("h3", {}, t("replay.review.worst")),
            el("ol", { class: "worst" }, r.worst.map((w, i) => el("li", { "data-testid": `sheet-worst-${i}` },
              el("strong", {}, `${w.player}, ${t("replay.review.turn", { turn: w.turn })}: `),
              `${w.dice.join(" ")} ${onThrow(w.throw, w.servida)}; `,
              t("replay.review.chosen", { chosen: w.chosen }), "; ", t("replay.review.best", { best: w.best }),
              ` (−${num(w.loss, 1)})`))),
          ]
        : null,
    );
  }

  function resetTyping() {
    page.dice = [];
    page.throw = 1;
    page.preview = null;
    page.scratch = null;
    page.advice = null;
  }

  function need() {
    const s = page.s;
    return s.phase === "start" ? s.start.dice : s.dice;
  }

  async function typed() {
    page.preview = null;
    page.advice = null;
    page.scratch = null;
    render();
    const s = page.s;
    if (s.phase !== "play" || page.dice.length !== s.dice) return;
    const seq = ++previewSeq;
    try {
      const found = await api.sheetPreview(id, page.dice, page.throw, lang());
      if (seq === previewSeq && alive) {
        page.preview = found;
        render();
      }
    } catch (exc) {
      toast(apiErrorText(exc));
    }
  }

  async function send(step) {
    page.busy = true;
    render();
    try {
      const s = await api.sheetStep(id, { version: page.s.version, ...step }, lang());
      page.s = s;
      resetTyping();
    } catch (exc) {
      toast(apiErrorText(exc));
      if (exc.status === 409) await load();
    }
    page.busy = false;
    render();
    clearTimeout(timer);
    timer = setTimeout(load, POLL_MS);
  }

  function tapBox(slot) {
    const points = page.preview ? page.preview.points[slot] : undefined;
    if (points === undefined) return;
    if (points === 0 && page.scratch !== slot) {
      page.scratch = slot; // a second tap writes the 0
      render();
      return;
    }
    send({ kind: "enter", dice: page.dice, throw: page.throw, slot, scratch: points === 0 });
  }

  async function hint() {
    try {
      page.advice = (await api.sheetAdvice(id, page.dice, page.throw, lang())).options;
    } catch (exc) {
      toast(apiErrorText(exc));
    }
    render();
  }

  async function undo() {
    try {
      page.s = await api.sheetUndo(id, page.s.version, lang());
      resetTyping();
    } catch (exc) {
      toast(apiErrorText(exc));
    }
    render();
  }

  function players() {
    const s = page.s;
    return el("ol", { class: "sheet-players", "data-testid": "sheet-players" }, s.players.map((name, i) =>
      el("li", { class: `sheet-player${i === s.current && s.phase !== "over" ? " current" : ""}${s.winners.includes(i) ? " winner" : ""}`,
        "data-testid": `sheet-player-line-${i}` },
      el("strong", {}, `${s.winners.includes(i) ? "🏆 " : ""}${name}`),
      el("span", { class: "n", "data-testid": `sheet-total-${i}` }, num(s.totals[i])),
      s.chances
        ? el("span", { class: "chance", "data-testid": `sheet-chance-${i}`, title: s.chances_exact ? "" : t("table.chances.estimated") },
          el("span", { class: "chance-bar" }, el("span", { class: "chance-fill", style: { width: `${(100 * s.chances[i]).toFixed(1)}%` } })),
          ` ${num(100 * s.chances[i], 0)}%`)
        : null)));
  }

  function status() {
    const s = page.s;
    const who = s.players[s.current];
    let text;
    if (s.phase === "start") text = t("sheet.start", { name: s.players[s.start.seat], n: s.start.dice });
    else if (s.phase === "tiebreak") text = t("sheet.tiebreak", { name: who, n: s.tiebreak_round });
    else if (s.phase === "over") text = s.reason === "instant-win" ? t("sheet.over.instant", { name: s.players[s.winners[0]] })
      : t("sheet.over", { names: s.winners.map((w) => s.players[w]).join(", ") });
    else text = t("sheet.turn", { name: who, n: s.round });
    return el("p", { class: "sheet-status", "data-testid": "sheet-status", role: "status" }, text);
  }

  function pad() {
    const s = page.s;
    const count = need();
    const slots = Array.from({ length: count }, (_, i) => page.dice[i]);
    const throws = s.phase === "start" ? [] : Array.from({ length: s.allowance }, (_, i) => i + 1);
    return el(
      "div",
      { class: "dice-pad card" },
      el("div", { class: "typed", "data-testid": "typed" }, slots.map((f, i) =>
        el("button", { type: "button", class: `typed-die${f ? "" : " empty"}`, "data-testid": `typed-${i}`,
          "aria-label": f ? t("sheet.die", { n: i + 1, face: f }) : t("sheet.die.empty", { n: i + 1 }),
          onclick: () => {
            if (!f) return;
            page.dice.splice(i, 1);
            typed();
          } }, f ? PIPS[f] : "·"))),
      el("div", { class: "faces" }, [1, 2, 3, 4, 5, 6].map((f) =>
        el("button", { type: "button", class: "face btn", "data-testid": `pad-${f}`, "aria-label": String(f),
          disabled: page.dice.length >= count || page.busy, onclick: () => {
            page.dice.push(f);
            typed();
          } }, el("span", { "aria-hidden": "true" }, PIPS[f]), el("span", { class: "face-n" }, String(f))))),
      throws.length
        ? el("div", { class: "throws", role: "group", "aria-label": t("sheet.throw") }, el("span", { class: "muted" }, `${t("sheet.throw")}: `),
          throws.map((n) => el("button", { type: "button", class: `btn small${page.throw === n ? " primary" : " ghost"}`,
            "data-testid": `throw-${n}`, "aria-pressed": String(page.throw === n), onclick: () => {
              page.throw = n;
              typed();
            } }, n === 1 ? t("sheet.throw.first") : String(n))))
        : null,
      s.phase === "start"
        ? el("button", { type: "button", class: "btn primary big wide", "data-testid": "start-submit",
          disabled: page.dice.length !== count || page.busy, onclick: () => send({ kind: "start", dice: page.dice }) }, t("sheet.start.ok"))
        : null,
      s.phase === "tiebreak"
        ? el("button", { type: "button", class: "btn primary big wide", "data-testid": "hand-submit",
          disabled: page.dice.length !== count || page.busy, onclick: () => send({ kind: "hand", dice: page.dice, throw: page.throw }) }, t("sheet.hand"))
        : null,
      s.phase === "play" && page.dice.length === count
        ? el("button", { type: "button", class: "btn small ghost", "data-testid": "sheet-hint", onclick: hint }, t("sheet.hint"))
        : null,
      page.preview && page.preview.wins_at_once ? el("p", { class: "notice", "data-testid": "wins-at-once" }, t("sheet.winsatonce")) : null,
      page.advice
        ? el("ol", { class: "advice", "data-testid": "sheet-advice" }, page.advice.length
          ? page.advice.map((a, i) => el("li", { "data-testid": `sheet-advice-${i}` }, a.text, el("span", { class: "muted small" }, ` (${num(a.expected, 1)})`)))
          : el("li", { class: "muted" }, t("sheet.noadvice")))
        : null,
    );
  }

  function sheetTable() {
    const s = page.s;
    const mine = s.cards[s.current] || [];
    return el(
      "div",
      { class: "table-scroll" },
      el("table", { class: "board sheet-real", "data-testid": "sheet-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("sheet.box")),
          s.players.map((p, i) => el("th", { scope: "col", class: `n${i === s.current ? " current" : ""}` }, p)))),
        el("tbody", {}, s.slots.map((slot, k) => {
          const canTap = s.phase === "play" && page.preview && page.preview.points[slot.slot] !== undefined && mine[k] === null;
          return el("tr", {},
            el("th", { scope: "row" }, canTap
              ? el("button", { type: "button", class: `btn small box-btn${page.scratch === slot.slot ? " danger" : ""}`, "data-testid": `box-${slot.slot}`,
                disabled: page.busy, onclick: () => tapBox(slot.slot) },
                page.scratch === slot.slot ? t("sheet.scratch", { box: slot.label }) : `${slot.label} → ${num(page.preview.points[slot.slot])}`)
              : slot.label),
            s.cards.map((card, i) => el("td", { class: "n", "data-testid": `cell-${i}-${slot.slot}` }, card[k] === null ? "" : num(card[k]))));
        }),
        el("tr", { class: "total" }, el("th", { scope: "row" }, t("sheet.total")), s.totals.map((x) => el("td", { class: "n" }, num(x)))))),
    );
  }

  const render = () => {
    document.title = `${t("nav.sheet")} · ${t("app.title")}`;
    const s = page.s;
    if (!s) return root.replaceChildren(page.error ? el("p", { class: "form-error", role: "alert" }, page.error) : el("p", { class: "loading" }, t("common.loading")));
    // the review of this version (an undo after the end makes another), asked once however the end was reached
    if (s.phase === "over" && (!page.review || page.review.version !== s.version)) loadReview(s.version);
    root.replaceChildren(
      el(
        "section",
        { class: "sheet-page", "data-testid": "sheet-page" },
        el("h1", {}, `${pick(s.rules.title, s.rules.name)} · ${t("nav.sheet")}`),
        el("div", { class: "share-row" }, el("input", { class: "share-input", readonly: true, value: location.href, "aria-label": t("sheet.share") })),
        players(),
        status(),
        s.phase === "over" ? null : pad(),
        s.can_undo ? el("button", { type: "button", class: "btn small ghost", "data-testid": "sheet-undo", onclick: undo }, t("sheet.undo")) : null,
        sheetTable(),
        s.phase === "over"
          ? [
              el("p", {},
                link(`/replay/${encodeURIComponent(id)}?sheet=1`, t("sheet.replay"), { class: "btn small", "data-testid": "sheet-replay" }), " ",
                el("a", { href: `/api/sheets/${encodeURIComponent(id)}/record`, download: "", "data-testid": "sheet-record" }, t("sheet.record"))),
              reviewPart(),
            ]
          : null,
        el("p", {}, link("/sheet", t("sheet.new"), { class: "btn small ghost" })),
      ),
    );
  };

  load();
  return { rerender: render, destroy: () => { alive = false; clearTimeout(timer); } };
}
