// The replay page: a finished game rebuilt step by step from its record (throws + actions),
// the coach's review and the fairness check. A real-dice sheet (/replay/<id>?sheet=1) is replayed from what
// was typed at the table (GET /api/sheets/<id>/replay): each entry's dice, the throw, the box and the points,
// never the earlier throws the server's scorekeeper invents; there is no seed to verify.
//
// The browser does not score hands: the points of each write come from the final scorecard
// (GET /api/tables/<id>), and whose turn it is follows the rules' opening, direction and
// turn count, as cubilete.engine.game does.

import { api, el, when } from "./api.js";
import { diceRow, dieSvg } from "./dice.js";
import { describe as describeFair, describeSignature, verify, verifySignature } from "./fair.js";
import { apiErrorText, botName, joinNames, lang, num, pick, shownName, t } from "./i18n.js";
import { renderSheet, slotLabel } from "./sheet.js";
import { loadSheetReview } from "./realdice.js";

/** Turn the record into steps: [{seat, action, dice, kept, slot, points, turn, tiebreak}], plus opening throws. */
export function buildSteps(record, finalCards) {
  const rules = record.rules || {};
  const n = (record.players || []).length;
  const actions = record.actions || [];
  const throws = record.throws || [];
  const rolls = actions.filter((a) => a && "roll" in a).length;
  const openingCount = Math.max(0, throws.length - rolls);
  const opening = throws.slice(0, openingCount);
  const slots = slotIds(rules);
  const turns = Number.isInteger(rules.rounds) ? rules.rounds : slots.length;

  // who starts: the opening throws, read the way the rules say
  let starter = 0;
  let known = true;
  if (n > 1 && rules.start && rules.start !== "seat-order") {
    let contenders = [...Array(n).keys()];
    let at = 0;
    while (contenders.length > 1 && at < opening.length) {
      const values = new Map();
      for (const seat of contenders) {
        const faces = opening[at++] || [];
        values.set(seat, faces.reduce((a, b) => a + b, 0));
      }
      const all = [...values.values()];
      const best = rules.start === "lowest-sum" ? Math.min(...all) : Math.max(...all);
      contenders = contenders.filter((s) => values.get(s) === best);
    }
    starter = contenders[0];
    known = at === opening.length;
  }
  const step = rules.direction === "counter-clockwise" ? -1 : 1;
  const order = [...Array(n).keys()].map((k) => (((starter + step * k) % n) + n) % n);

  const taken = new Array(n).fill(0);
  const closed = [...Array(n).keys()].map(() => new Set()); // slots written or closed, per seat
  let current = order[0];
  let tiebreak = null; // {contenders, stood}
  let dice = [];
  let tp = openingCount;
  let turnNo = 1;
  let throwsInTurn = 0; // for duplicate dice: a throw's place is (turn of the seat, throw of the turn)
  let round = 1; // the tie-break round (engine: tiebreak_round, from 1)
  const out = [];
  const totals = record.totals || [];
  for (const action of actions) {
    const entry = { seat: known ? current : null, action, turn: turnNo, tiebreak: Boolean(tiebreak) };
    if ("roll" in action) {
      const keep = Array.isArray(action.roll) ? action.roll : [];
      const sizeNow = rules.dice || (throws[tp] || []).length + keep.length;
      let place = null; // as cubilete.engine.game.duplicate_place; unknown where the seat is not known
      if (known && current !== null) {
        place = tiebreak ? `tiebreak:${round}:${current}:${throwsInTurn}` : `play:${taken[current]}:${throwsInTurn}`;
      }
      entry.place = place === null ? null : { place, positions: [...Array(sizeNow).keys()].filter((p) => !keep.includes(p)) };
      throwsInTurn += 1;
      const thrown = (throws[tp++] || []).map((f) => (action.face_down ? 7 - f : f));
      const size = rules.dice || thrown.length + keep.length;
      const next = [];
      let j = 0;
      for (let p = 0; p < size; p++) next.push(keep.includes(p) && dice.length ? dice[p] : thrown[j++]);
      dice = next;
      Object.assign(entry, { dice: [...dice], kept: keep });
    } else if ("score" in action) {
      const si = slots.indexOf(action.score);
      const card = current !== null && finalCards ? finalCards[current] : null;
      const points = card && si >= 0 ? card[si] : null;
      Object.assign(entry, { dice: [...dice], slot: action.score, slotIndex: si, points });
      if (current !== null) {
        taken[current] += 1;
        closeSlots(rules, slots, closed[current], si, points);
      }
      current = nextSeat(order, current, taken, turns, closed, slots.length);
      if (current === null && totals.length === n) {
        // everyone is done and the game goes on: a tie-break among the top totals
        const top = Math.max(...totals);
        tiebreak = { contenders: order.filter((s) => totals[s] === top), stood: 0 };
        current = tiebreak.contenders[0];
      }
      dice = [];
      turnNo += 1;
      throwsInTurn = 0;
    } else if ("stand" in action) {
      Object.assign(entry, { dice: [...dice], stand: true });
      if (tiebreak) {
        tiebreak.stood += 1;
        if (tiebreak.stood < tiebreak.contenders.length) current = tiebreak.contenders[tiebreak.stood];
        else if (tiebreak.contenders.length === 2) {
          tiebreak.stood = 0; // still tied (the game went on): the same two throw again
          current = tiebreak.contenders[0];
          round += 1;
        } else current = null; // who stays tied needs the hands' values: not shown
      }
      dice = [];
      turnNo += 1;
      throwsInTurn = 0;
    }
    out.push(entry);
  }
  return { opening, steps: out, known };
}

/**
 * For a duplicate-dice record: each recorded throw's place and dice thrown (null where not known), in order.
 * ``finalCards`` (each seat's final card) tell which boxes a scratch closed, so the end of a seat's turns and
 * a tie-break come where the engine has them.
 */
export function throwPlaces(record, finalCards = null) {
  const built = buildSteps(record, finalCards);
  const opening = built.opening.map((faces, i) => ({ place: `start:${i}`, positions: faces.map((_f, p) => p) }));
  return [...opening, ...built.steps.filter((s) => "roll" in s.action).map((s) => s.place)];
}

function slotIds(rules) {
  const boxes = (rules.boxes || []).map((b) => b.id);
  const cols = Array.isArray(rules.columns) ? rules.columns.length : 1;
  if (cols <= 1) return boxes;
  const ids = [];
  for (let c = 1; c <= cols; c++) for (const b of boxes) ids.push(`${b}@${c}`);
  return ids;
}

// A seat plays on while it has turns left and an open slot (cubilete.engine.game): a scratched box closes
// the boxes that require it in its column (a scratched Generala closes the Doble), so that seat may
// finish a turn early.
function nextSeat(order, current, taken, turns, closed, nSlots) {
  if (current === null) return null;
  const at = order.indexOf(current);
  for (let k = 1; k <= order.length; k++) {
    const seat = order[(at + k) % order.length];
    if (taken[seat] < turns && closed[seat].size < nSlots) return seat;
  }
  return null;
}

function closeSlots(rules, slots, closed, si, points) {
  if (si < 0) return;
  closed.add(si);
  if (points !== 0) return; // only a scratch closes other boxes (points unknown: nothing more)
  const boxes = rules.boxes || [];
  const width = boxes.length;
  if (!width) return;
  const column = Math.floor(si / width);
  const scratched = boxes[si % width].id;
  boxes.forEach((b, i) => {
    if (b.requires === scratched && b.closed_by_scratch !== false) closed.add(column * width + i);
  });
}

/**
 * A finished real-dice sheet (GET /api/sheets/<id>/replay) as the page's record, info and steps: one step per
 * typed entry or tie-break hand, each with its seat's card and everyone's totals after it (from the server's
 * scorekeeper: the browser scores nothing).
 */
export function typedGame(view) {
  const rules = view.rules;
  const slots = (rules.slots || []).map((s) => s.slot);
  const steps = view.steps.map((s, i) => ({
    typed: true,
    action: { typed: s.kind },
    seat: s.seat,
    turn: i + 1,
    tiebreak: s.kind === "hand",
    dice: s.dice,
    kept: [],
    throw: s.throw,
    servida: s.servida,
    slot: s.kind === "enter" ? s.slot : undefined,
    slotIndex: slots.indexOf(s.slot),
    points: s.points,
    won: Boolean(s.wins_at_once),
    card: s.card,
    totals: s.totals,
  }));
  const record = {
    players: view.players,
    winners: view.winners.map((seat) => view.players[seat]),
    totals: view.totals,
    reason: view.reason,
    rules: { name: rules.name, title: rules.title },
    finished_at: view.finished_at,
  };
  const info = {
    table: { rules },
    state: { seats: view.players.map((name, i) => ({ name, kind: "human", card: view.cards[i] })) },
  };
  return { record, info, built: { opening: view.start.map((s) => s.dice), steps, known: true } };
}

export function mount(root, { id }) {
  const data = { record: null, info: null, review: undefined, error: null, at: 0, built: null };
  data.signature = { state: "checking" };
  const sheet = new URLSearchParams(location.search).get("sheet") === "1"; // a real-dice sheet: its own routes
  let alive = true;

  (sheet
    ? api.sheetReplay(id).then(typedGame)
    : Promise.all([api.record(id), api.table(id)]).then(([record, info]) => {
        const cards = info && info.state ? info.state.seats.map((s) => s.card) : null;
        return { record, info, built: buildSteps(record, cards) };
      })
  )
    .then(({ record, info, built }) => {
      data.record = record;
      data.info = info;
      data.built = built;
      data.at = data.built.steps.length;
      if (!sheet) loadOptimal(info);
    })
    .catch((exc) => {
      data.error = exc;
    })
    .finally(() => alive && render())
    .then(() => data.record && !sheet && checkSignature(data.record))
    .then((result) => {
      if (!result) return;
      data.signature = result;
      if (alive) render();
    });
  (sheet ? loadSheetReview(id, () => alive) : api.review(id, lang()))
    .then((review) => {
      data.review = review;
    })
    .catch(() => {
      data.review = null;
    })
    .finally(() => alive && data.record && render());

  // a daily challenge game, after its day: the optimal player's game on the same dice, beside this one
  function loadOptimal(info) {
    const daily = info && info.state && info.state.daily;
    if (!daily) return;
    const [day, preset] = String(daily).split("/");
    api
      .dailyOptimal(day, preset)
      .then((found) => {
        data.optimal = { built: buildSteps(found.record, [found.card]), score: found.score };
        if (alive) render();
      })
      .catch(() => {}); // no solved table on the server yet: the replay is shown alone
  }

  /** How many boxes seat 0 has written in the first ``k`` steps (a daily game has one seat). */
  function writesIn(steps, k) {
    return steps.slice(0, k).filter((s) => s.slot !== undefined && s.seat === 0).length;
  }

  /** The optimal game's column and what it did in the turn shown, aligned by turns (the same dice). */
  function optimalBeside(k) {
    const opt = data.optimal;
    if (!opt) return null;
    const steps = opt.built.steps;
    const done = writesIn(data.built.steps, k);
    let end = 0; // the optimal game's steps up to its ``done``-th box; all of them once this game is over
    while (end < steps.length && (k >= data.built.steps.length || writesIn(steps, end) < done)) end += 1;
    const card = new Array((rulesInfo().slots || []).length).fill(null);
    for (const s of steps.slice(0, end)) if (s.slot !== undefined && s.slotIndex >= 0) card[s.slotIndex] = s.points;
    const over = end >= steps.length;
    const total = over ? opt.score : card.reduce((a, v) => a + (v || 0), 0);
    // the turn being played on the left, as the optimal player played it
    let turnEnd = end;
    while (turnEnd < steps.length) {
      turnEnd += 1;
      if (steps[turnEnd - 1].slot !== undefined) break; // the turn ends with its box
    }
    const turn = steps
      .slice(end, turnEnd)
      .map((s) => `${describeStep(s, t("replay.optimal"))}${"roll" in s.action && s.dice ? `: ${s.dice.join(" ")}` : ""}`);
    return { column: { index: 1, name: t("replay.optimal"), tag: "", card, total, current: false, you: false }, turn };
  }

  // a bot's name in the page's language ("Strong bot" is stored; "Bot fuerte" is shown)
  const names = () =>
    (data.record.players || []).map((name, i) => {
      const seats = data.info && data.info.state ? data.info.state.seats : [];
      return seats[i] && seats[i].kind === "bot" ? botName(seats[i].level, String(name)) : String(name);
    });
  const nameOf = (seat) => (seat === null || seat === undefined ? "?" : names()[seat] ?? "?");

  function rulesInfo() {
    return (data.info && data.info.table && data.info.table.rules) || { slots: [], title: data.record.rules.title };
  }

  /** "on throw 2", or "on throw 1, servida" where the rules count a first-throw hand apart. */
  function onThrow(thrown, servida) {
    return servida ? t("sheet.onthrow.first", { servida: pick(rulesInfo().servida, "servida") }) : t("sheet.onthrow", { n: thrown });
  }

  /** A typed step in words: the dice typed, the throw, and the box written (or the hand shown, or the instant win). */
  function describeTyped(s, who) {
    const typed = `${who}: ${s.dice.join(" ")} ${onThrow(s.throw, s.servida)}`;
    if (s.tiebreak) return `${typed}: ${t("sheet.replay.hand")}`;
    if (s.won) return `${typed}: ${t("sheet.over.instant", { name: who })}`;
    return `${typed}: ${typedWrote(s)}`;
  }

  function typedWrote(s) {
    if (s.tiebreak) return t("replay.tiebreak");
    if (s.won) return t("sheet.over.instant", { name: nameOf(s.seat) });
    const label = slotLabel(rulesInfo(), s.slot);
    return s.points === 0 ? t("replay.scratched", { slot: label }) : `${t("replay.wrote", { slot: label })} = ${s.points}`;
  }

  function describeStep(s, who = nameOf(s.seat)) {
    if (s.typed) return describeTyped(s, who);
    if ("roll" in s.action) {
      // the faces kept (the dice at those positions did not move), never the positions: "apartó 5 5"
      const kept = (s.kept || []).map((p) => (s.dice || [])[p]).filter((f) => f !== undefined);
      const keptText = kept.length ? `${t("replay.kept", { kept: kept.join(" ") })}, ` : "";
      return `${who}: ${keptText}${t("replay.threw")}${s.action.face_down ? " (em baixo)" : ""}`;
    }
    if (s.stand) return `${who}: ${t("replay.stood")}`;
    const label = slotLabel(rulesInfo(), s.slot);
    if (s.points === 0) return `${who}: ${t("replay.scratched", { slot: label })}`;
    const points = s.points === null || s.points === undefined ? "" : ` = ${s.points}`;
    return `${who}: ${t("replay.wrote", { slot: label })}${points}`;
  }

  /** What the optimal player did in the turn shown (a daily game after its day). */
  function besideBox(beside) {
    if (!beside) return null;
    return el(
      "section",
      { class: "card beside", "data-testid": "optimal-beside" },
      el("h2", {}, t("replay.optimal.turn")),
      beside.turn.length
        ? el("ul", { class: "beside-turn" }, beside.turn.map((line) => el("li", {}, line)))
        : el("p", { class: "muted" }, t("replay.optimal.done", { score: num(data.optimal.score) })),
    );
  }

  function stepButton(testid, text, onclick, disabled, label = null, cls = "btn") {
    return el(
      "button",
      { type: "button", class: cls, "data-testid": testid, "aria-label": label, title: label, onclick, disabled },
      text,
    );
  }

  function wroteText(s) {
    return `${slotLabel(rulesInfo(), s.slot)} ${s.points ?? ""}`;
  }

  function go(k) {
    data.at = Math.max(0, Math.min(k, data.built.steps.length));
    render();
  }

  function cardsAt(k) {
    const n = names().length;
    const size = (rulesInfo().slots || []).length;
    const cards = Array.from({ length: n }, () => new Array(size).fill(null));
    if (sheet) {
      for (const s of data.built.steps.slice(0, k)) cards[s.seat] = [...s.card]; // the seat's card after its step
      return cards;
    }
    for (const s of data.built.steps.slice(0, k)) {
      if (s.slot !== undefined && s.seat !== null && s.slotIndex >= 0) cards[s.seat][s.slotIndex] = s.points;
    }
    return cards;
  }

  function render() {
    if (data.error) {
      const message = apiErrorText(data.error);
      root.replaceChildren(el("p", { class: "form-error", role: "alert" }, message));
      return;
    }
    if (!data.record) {
      root.replaceChildren(el("p", { class: "loading" }, t("common.loading")));
      return;
    }
    const rec = data.record;
    const rules = rulesInfo();
    const title = pick(rules.title, rec.rules.name);
    document.title = `${t("replay.heading")} · ${title}`;
    const steps = data.built.steps;
    const k = data.at;
    const last = data.at === steps.length;
    const cards = cardsAt(k);
    // mid-game totals are the boxes written so far; the final ones (with any bonus) are the record's
    const sums = cards.map((c) => c.reduce((a, v) => a + (v || 0), 0));
    const current = k > 0 ? steps[k - 1] : null;
    let totals = last && Array.isArray(rec.totals) ? rec.totals : sums;
    if (sheet && current) totals = current.totals; // a sheet's totals after each entry, bonuses included
    const seats = data.info && data.info.state ? data.info.state.seats : [];
    const columns = names().map((name, i) => ({
      index: i,
      name,
      tag: seats[i] && seats[i].kind === "bot" ? t("table.bottag", { level: t(`level.${seats[i].level}`) }) : "",
      card: cards[i],
      total: totals[i],
      current: current ? current.seat === i : false,
      you: false,
    }));
    const beside = optimalBeside(k);
    if (beside) columns.push(beside.column);
    const players = (rec.players || []).map(String);
    const winners = (Array.isArray(rec.winners) ? rec.winners : []).map((w) =>
      players.indexOf(String(w)) >= 0 ? names()[players.indexOf(String(w))] : shownName(w),
    );
    const stepper = el(
      "div",
      { class: "felt replay-felt" },
      el("p", { class: "status", "data-testid": "replay-step" }, t("replay.step", { n: k, m: steps.length })),
      el("p", { class: "last", "data-testid": "replay-action" }, current ? describeStep(current) : ""),
      el(
        "div",
        { class: "dice-tray" },
        (current && current.dice && current.dice.length ? current.dice : []).map((f, i) =>
          el(
            "span",
            {
              class: `die static${current.kept && current.kept.includes(i) ? " held" : ""}`,
              "data-testid": `replay-die-${i}`,
              "data-face": String(f),
            },
            dieSvg(f, 52),
            el("span", { class: "held-label" }, current.kept && current.kept.includes(i) ? t("table.held") : ""),
          ),
        ),
      ),
      el(
        "div",
        { class: "actions" },
        stepButton("replay-first", "«", () => go(0), k === 0, t("replay.first")),
        stepButton("replay-prev", t("replay.prev"), () => go(k - 1), k === 0),
        stepButton("replay-next", t("replay.next"), () => go(k + 1), last, null, "btn primary"),
        stepButton("replay-last", "»", () => go(steps.length), last, t("replay.last")),
      ),
      el("input", {
        type: "range",
        min: "0",
        max: String(steps.length),
        value: String(k),
        "aria-label": t("replay.step", { n: k, m: steps.length }),
        class: "scrub",
        oninput: (ev) => go(Number(ev.target.value)),
      }),
    );
    root.replaceChildren(
      el(
        "section",
        { class: "replay-page" },
        el(
          "header",
          { class: "page-head" },
          el("h1", {}, `${t("replay.heading")}: ${title}`),
          el("span", { class: "muted" }, when(rec.finished_at, lang())),
        ),
        el(
          "p",
          { class: "result", "data-testid": "result" },
          winners.length > 1
            ? t("table.winners", { names: joinNames(winners) })
            : t("table.winner", { names: winners[0] ?? "?" }),
          rec.reason ? ` — ${t(`table.reason.${rec.reason}`)}` : "",
        ),
        el(
          "div",
          { class: "play-area" },
          el("div", { class: "felt-col" }, stepper, besideBox(beside), sheet ? typedBox() : fairBox(rec), reviewBox()),
          el(
            "div",
            { class: "sheet-col" },
            el("h2", {}, last ? t("replay.final") : t("replay.sheet")),
            renderSheet(rules, columns),
          ),
        ),
        movesList(),
      ),
    );
  }

  function movesList() {
    const { steps, opening } = data.built;
    const groups = [];
    steps.forEach((s, i) => {
      const g = groups[groups.length - 1];
      if (!g || g.turn !== s.turn) groups.push({ turn: s.turn, seat: s.seat, tiebreak: s.tiebreak, items: [] });
      groups[groups.length - 1].items.push([s, i]);
    });
    return el(
      "section",
      { class: "moves card" },
      el("h2", {}, t("replay.turns")),
      opening.length
        ? el("p", { class: "muted" }, t("replay.opening", { throws: opening.map((o) => o.join("")).join(" · ") }))
        : null,
      el(
        "ol",
        { class: "turn-list", "data-testid": "turns" },
        groups.map((g) =>
          el(
            "li",
            { class: "turn-item" },
            el("span", { class: "turn-who" }, nameOf(g.seat), g.tiebreak ? ` (${t("replay.tiebreak")})` : ""),
            el(
              "span",
              { class: "turn-steps" },
              g.items.map(([s, i]) =>
                el(
                  "button",
                  {
                    type: "button",
                    class: `step-btn${data.at === i + 1 ? " on" : ""}`,
                    "data-testid": `step-${i + 1}`,
                    onclick: () => go(i + 1),
                    title: describeStep(s),
                  },
                  s.typed
                    ? [diceRow(s.dice, { size: 20 }), el("span", { class: "wrote" }, typedWrote(s))]
                    : "roll" in s.action
                      ? diceRow(s.dice, { size: 20, held: s.kept })
                      : el("span", { class: "wrote" }, s.stand ? t("replay.stood") : wroteText(s)),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  // The site's signature over the whole record: checked here with WebCrypto Ed25519, or, where this
  // browser cannot (no Ed25519, or no crypto.subtle on a plain-http address), by POST /api/verify.
  async function checkSignature(record) {
    try {
      const mine = await verifySignature(record, await api.siteKey());
      if (mine.state !== "unsupported") return { ...mine, where: "browser" };
      const theirs = await api.verifyRecord(record);
      return { state: theirs.ok ? "ok" : "bad", key: (record.signature || {}).key, where: "server" };
    } catch {
      return { state: "error" };
    }
  }

  function finalCards() {
    return data.info && data.info.state ? data.info.state.seats.map((s) => s.card) : null;
  }

  /** A sheet's dice were thrown at a real table and typed in: nothing to verify, and the page says so. */
  function typedBox() {
    return el("section", { class: "card fair", "data-testid": "replay-real-dice" }, el("p", {}, t("sheet.typed")));
  }

  function fairBox(rec) {
    const committed = data.info && data.info.table ? data.info.table.commitment : rec.commitment;
    const res =
      rec.commitment && committed && rec.commitment !== committed
        ? { ok: false, throws: 0, problem: { kind: "commitment" } }
        : verify(rec.seed, committed, rec.throws, rec.dice === "duplicate" ? throwPlaces(rec, finalCards()) : null);
    return el(
      "section",
      { class: "card fair" },
      el("h2", {}, t("replay.fair")),
      el(
        "p",
        { class: `verify-result ${res.ok ? "ok" : "bad"}`, "data-testid": "verify-result" },
        describeFair(res, t),
      ),
      el(
        "p",
        {
          class: `verify-result ${data.signature.state === "ok" ? "ok" : data.signature.state === "checking" ? "" : "bad"}`,
          "data-testid": "signature-result",
          "data-state": data.signature.state,
          "data-where": data.signature.where || "",
        },
        describeSignature(data.signature, t),
      ),
      el("p", { class: "commitment" }, `${t("table.commitment")}: `, el("code", { "data-testid": "replay-commitment" }, committed || "")),
      // the revealed seed: with the commitment, anyone can recheck every throw
      el("p", { class: "commitment" }, `${t("replay.seed")}: `, el("code", { "data-testid": "replay-seed" }, rec.seed || "")),
    );
  }

  function reviewBox() {
    const r = data.review;
    const heading = el("h2", {}, t("replay.review"));
    if (r === undefined) {
      return el("section", { class: "card review" }, heading, el("p", { class: "loading" }, t("common.loading")));
    }
    if (!r || !(r.players || []).length) {
      return el(
        "section",
        { class: "card review", "data-testid": "review" },
        heading,
        el("p", { class: "muted" }, t(r && r.reviewed === false ? "sheet.review.none" : "replay.review.none")),
        r ? chancesPart(r) : null,
      );
    }
    return el(
      "section",
      { class: "card review", "data-testid": "review" },
      heading,
      r.exact ? null : el("p", { class: "muted" }, t("replay.review.approx")),
      el(
        "ul",
        {},
        r.players.map((p) =>
          el("li", {}, t("replay.review.loss", { name: shownName(p.name), loss: num(p.loss, 1), n: p.decisions })),
        ),
      ),
      (r.worst || []).length
        ? [
            el("h3", {}, t("replay.review.worst")),
            el(
              "ol",
              { class: "worst" },
              r.worst.map((w) =>
                el(
                  "li",
                  {},
                  el("strong", {}, `${shownName(w.player)}, ${t("replay.review.turn", { turn: w.turn })}: `),
                  // a sheet's entry: the dice typed and the throw the player stopped on
                  w.throw ? `${w.dice.join(" ")} ${onThrow(w.throw, w.servida)}; ` : null,
                  t("replay.review.chosen", { chosen: w.chosen }),
                  "; ",
                  t("replay.review.best", { best: w.best }),
                  ` (−${num(w.loss, 1)})`,
                ),
              ),
            ),
          ]
        : null,
      chancesPart(r),
    );
  }

  /** The chart of everyone's chance to win and the chance to win each person gave up (games with opponents). */
  function chancesPart(r) {
    const parts = [];
    if (r.chances && r.chances.players.length > 1) {
      parts.push(
        el("h3", {}, t("replay.chances"), r.chances.exact ? "" : ` ${t("table.chances.estimated")}`),
        // the legend names bots in the page's language, as the rest of the replay does
        chanceChart(names().length === r.chances.players.length ? { ...r.chances, players: names() } : r.chances),
      );
    }
    if (r.win && r.win.players.length) {
      parts.push(
        el("h3", {}, t("replay.win.lost")),
        el(
          "ul",
          { "data-testid": "win-lost" },
          r.win.players.map((p) => el("li", {}, t("replay.win.loss", { name: p.name, loss: num(100 * p.loss, 1) }))),
          (r.win.worst || []).map((w) =>
            el(
              "li",
              { class: "muted" },
              `${w.player}, ${t("replay.review.turn", { turn: w.turn })}: `,
              t("replay.review.chosen", { chosen: w.chosen }),
              "; ",
              t("replay.review.best", { best: w.best }),
              ` (−${num(100 * w.loss, 1)}%)`,
            ),
          ),
        ),
      );
    }
    return parts;
  }

  // the stepper from the keyboard: arrows step, Home and End jump (never while typing in a field)
  function onKey(ev) {
    if (!data.built || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.target instanceof HTMLTextAreaElement) return;
    const moves = { ArrowLeft: data.at - 1, ArrowRight: data.at + 1, Home: 0, End: data.built.steps.length };
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    go(moves[ev.key]);
  }
  document.addEventListener("keydown", onKey);

  render();
  return {
    rerender: render,
    destroy: () => {
      alive = false;
      document.removeEventListener("keydown", onKey);
    },
  };
}


const SVG_NS = "http://www.w3.org/2000/svg";
const CHART_COLOURS = ["#136145", "#c0392b", "#2c6fbb", "#b7791f", "#7b3fa0", "#3c8d8d", "#555555", "#d35400"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

/** An SVG line chart: each player's chance to win (0-100%) after every turn, with a legend. */
export function chanceChart(line) {
  const W = 480;
  const H = 200;
  const pad = { l: 36, r: 8, t: 8, b: 22 };
  const last = Math.max(1, line.turns[line.turns.length - 1] || 1);
  const x = (turn) => pad.l + ((W - pad.l - pad.r) * turn) / last;
  const y = (p) => pad.t + (H - pad.t - pad.b) * (1 - p);
  const chart = svg("svg", {
    viewBox: `0 0 ${W} ${H + 18 * Math.ceil(line.players.length / 3)}`,
    class: "chance-chart",
    role: "img",
    "aria-label": t("replay.chances"),
    "data-testid": "chance-chart",
  });
  for (const p of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: pad.l, x2: W - pad.r, y1: y(p), y2: y(p), stroke: "#ccc", "stroke-width": 1 }));
    const label = svg("text", { x: pad.l - 4, y: y(p) + 4, "text-anchor": "end", "font-size": 11 });
    label.textContent = `${Math.round(100 * p)}%`;
    chart.append(label);
  }
  line.players.forEach((name, seat) => {
    const colour = CHART_COLOURS[seat % CHART_COLOURS.length];
    const points = line.turns.map((turn, i) => `${x(turn).toFixed(1)},${y(line.chances[i][seat]).toFixed(1)}`);
    chart.append(
      svg("polyline", {
        points: points.join(" "),
        fill: "none",
        stroke: colour,
        "stroke-width": 2,
        "data-player": name,
      }),
    );
    const lx = pad.l + (seat % 3) * 150;
    const ly = H + 14 + 18 * Math.floor(seat / 3);
    chart.append(svg("rect", { x: lx, y: ly - 9, width: 12, height: 4, fill: colour }));
    const text = svg("text", { x: lx + 16, y: ly - 4, "font-size": 12 });
    text.textContent = name;
    chart.append(text);
  });
  return chart;
}
