// The table page's end: who won and why, the standings, a celebration, the ways on (verify, replay, the
// record, rematch) and, after a same-dice match, both games side by side.

import { el, link } from "./api.js";
import { describe as describeFair } from "./fair.js";
import { joinNames, num, pick, t } from "./i18n.js";

/**
 * Fill `box` with the end of the game in state `st` (hidden before it ends). `end` holds what the page knows:
 * `id`, `rules`, `fair` (the dice check's outcome, or null), `me` (this browser's seat, or null), `match`
 * (undefined: not asked yet; null: on its way or none), and the page's `seatName(i)`, `verify()`,
 * `rematch()` and `askMatch()` (fetch the match, then draw again).
 */
export function renderResult(box, st, end) {
  if (!st || !st.result || st.status !== "finished") {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const winners = (st.result.winners || []).map((i) => end.seatName(i));
  const headline =
    winners.length > 1
      ? t("table.winners", { names: joinNames(winners) })
      : t("table.winner", { names: winners[0] || "?" });
  const reason = st.result.reason ? t(`table.reason.${st.result.reason}`) : "";
  let verdict = null;
  if (end.fair) {
    const text = end.fair.result ? describeFair(end.fair.result, t) : end.fair.text;
    verdict = el(
      "p",
      {
        class: `verify-result${end.fair.ok === true ? " ok" : end.fair.ok === false ? " bad" : ""}`,
        "data-testid": "verify-result",
      },
      text,
    );
  }
  box.hidden = false;
  box.replaceChildren(
    el("h2", {}, t("table.result")),
    ...celebration(st, end),
    el("p", { class: "result", "data-testid": "result" }, headline, reason ? ` — ${reason}` : ""),
    standings(st, end),
    el(
      "div",
      { class: "result-actions" },
      el("button", { type: "button", class: "btn", "data-testid": "verify", onclick: end.verify }, t("table.verify")),
      link(`/replay/${encodeURIComponent(end.id)}`, t("table.replay"), {
        class: "btn ghost",
        "data-testid": "replay-link",
      }),
      el("a", {
        href: `/api/tables/${encodeURIComponent(end.id)}/record?download=1`,
        download: `cubilete-${end.id}.json`,
        class: "btn ghost",
        "data-testid": "download-record",
      }, t("table.download")),
      // only the table's own players may ask for its rematch (the server refuses anyone else)
      end.me !== null
        ? el("button", { type: "button", class: "btn primary", "data-testid": "rematch", onclick: end.rematch }, t("table.rematch"))
        : null,
      link("/", t("table.newgame"), { class: "btn ghost" }),
    ),
    ...(verdict ? [verdict] : []), // replaceChildren would print a null as the text "null"
    ...matchLines(st, end),
  );
}

/** The final standings: winners first (an instant win beats points), then by total; the winner marked. */
function standings(st, end) {
  const winners = new Set(st.result.winners || []);
  const totals = st.result.totals || st.seats.map((s) => s.total);
  const order = st.seats.map((_s, i) => i).sort((a, b) => Number(winners.has(b)) - Number(winners.has(a)) || totals[b] - totals[a]);
  return el(
    "ol",
    { class: "standings", "data-testid": "standings" },
    order.map((i) =>
      el(
        "li",
        { class: `standing${winners.has(i) ? " winner" : ""}${i === end.me ? " me" : ""}`, "data-testid": `standing-${i}` },
        el("span", { class: "standing-mark", "aria-hidden": "true" }, winners.has(i) ? "★" : ""),
        el("span", { class: "standing-name" }, end.seatName(i), winners.has(i) ? el("span", { class: "sr-only" }, ` (${t("table.won")})`) : null),
        el("span", { class: "standing-total", "data-testid": `result-total-${i}` }, num(totals[i])),
      ),
    ),
  );
}

/** A Generala servida (an instant win) or a win of one's own gets its moment; never moves under reduced motion. */
function celebration(st, end) {
  const instant = st.result.reason === "instant-win";
  const mine = end.me !== null && (st.result.winners || []).includes(end.me);
  if (!instant && !mine) return [];
  const servida = pick(end.rules.servida, "servida");
  const words = instant ? t("table.celebrate.instant", { servida }) : t("table.celebrate.won");
  return [
    el(
      "div",
      { class: `celebrate${instant ? " instant" : ""}`, "data-testid": "celebrate", role: "status" },
      el("span", { class: "confetti", "aria-hidden": "true" }, ...Array.from({ length: 12 }, () => el("i", {}))),
      el("strong", {}, words),
    ),
  ];
}

/** The second game of a same-dice match: both games per person and who decided better (web/duplicate.py). */
function matchLines(st, end) {
  if (!st.match_of) return st.same_dice ? [el("p", { class: "muted", "data-testid": "same-dice" }, t("table.samedice"))] : [];
  if (end.match === undefined) {
    end.askMatch();
    return [];
  }
  const m = end.match;
  if (!m) return [];
  const totals = m.people.map((p) => `${p.name} ${p.total}`).join(" – ");
  const losses = m.people
    .map((p) => `${p.name} ${p.loss_per_decision === null ? "–" : num(p.loss_per_decision, 3)}`)
    .join(", ");
  return [
    el("h3", {}, t("table.match")),
    el("p", { "data-testid": "match-result" }, totals),
    el("p", { class: "muted" }, `${t("daily.loss")}: ${losses}`),
    m.decided_better ? el("p", { "data-testid": "match-better" }, t("table.match.better", { name: m.decided_better })) : null,
  ].filter(Boolean);
}
