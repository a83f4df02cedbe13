// The scorecard: one row per slot, one column per seat; the current player's open slots show
// what the dice on the table would get there, and a tap writes it.

import { el } from "./api.js";
import { pick, t } from "./i18n.js";

/** The label of a slot in the UI language (falls back to the slot id). */
export function slotLabel(rules, slotId) {
  const slot = (rules.slots || []).find((s) => s.slot === slotId);
  return slot ? pick(slot.labels, slotId) : slotId;
}

/**
 * columns: [{index, name, tag, card: [...], total, current: bool, you: bool}] (tag: a small note under the name)
 * preview: null or {seat, sheet: [{slot, state, points}], clickable: bool, onPick(slotId, points)}
 */
export function renderSheet(rules, columns, preview = null) {
  const slots = rules.slots || [];
  const bySlot = new Map();
  if (preview) for (const entry of preview.sheet || []) bySlot.set(entry.slot, entry);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", class: "slot-head" }, t("table.slot")),
    columns.map((c) =>
      el(
        "th",
        {
          scope: "col",
          class: `seat-head${c.current ? " current" : ""}${c.you ? " you" : ""}`,
          "data-testid": `col-${c.index}`,
        },
        el("span", { class: "seat-head-name" }, c.name),
        c.tag ? el("span", { class: "seat-tag" }, c.tag) : null,
        c.you ? el("span", { class: "you-badge" }, t("table.you")) : null,
      ),
    ),
  );
  const rows = slots.map((slot, si) =>
    el(
      "tr",
      { "data-slot": slot.slot },
      el("th", { scope: "row", class: "slot-name" }, pick(slot.labels, slot.slot)),
      columns.map((c) => cell(rules, slot, si, c, preview, bySlot)),
    ),
  );
  const totals = el(
    "tr",
    { class: "totals" },
    el("th", { scope: "row" }, t("table.total")),
    columns.map((c) =>
      el("td", { class: c.current ? "current" : "", "data-testid": `total-${c.index}` }, String(c.total ?? 0)),
    ),
  );
  return el(
    "div",
    { class: "sheet-wrap" },
    el("table", { class: "sheet", "data-testid": "sheet" }, el("thead", {}, head), el("tbody", {}, rows, totals)),
  );
}

function cell(rules, slot, si, column, preview, bySlot) {
  const written = column.card ? column.card[si] : null;
  const attrs = { class: column.current ? "current" : "", "data-testid": `cell-${column.index}-${slot.slot}` };
  if (written !== null && written !== undefined) {
    attrs.class += written === 0 ? " written scratched" : " written";
    attrs["aria-label"] = t("table.box.written", { slot: pick(slot.labels, slot.slot), points: written });
    return el("td", attrs, String(written));
  }
  const entry = preview && preview.seat === column.index ? bySlot.get(slot.slot) : null;
  if (!entry || (entry.state !== "usable" && entry.state !== "scratch-only")) {
    if (entry && entry.state === "blocked") attrs.class += " blocked";
    return el("td", attrs, "");
  }
  const points = entry.state === "scratch-only" ? 0 : Number(entry.points ?? 0);
  attrs.class += points === 0 ? " option zero" : " option";
  if (!preview.clickable) return el("td", attrs, el("span", { class: "preview" }, String(points)));
  const label = pick(slot.labels, slot.slot);
  return el(
    "td",
    attrs,
    el(
      "button",
      {
        type: "button",
        class: "write",
        "data-testid": `slot-${slot.slot}`,
        "aria-label": t(points === 0 ? "table.box.scratch" : "table.box.option", { points, slot: label }),
        onclick: () => preview.onPick(slot.slot, points, label),
      },
      String(points),
    ),
  );
}

/**
 * The table page's sheet for state `st`: a column per seat (`view.seatName(i)`, `view.seatTag(seat)`,
 * `view.me` this browser's seat) and, once the turn's dice are thrown, what they would get in each box
 * (tappable when `view.canPick`, writing through `view.onPick(slotId, points, label)`).
 */
export function renderTableSheet(rules, st, view) {
  const columns = st.seats.map((s) => ({
    index: s.index,
    name: view.seatName(s.index),
    tag: view.seatTag(s),
    card: s.card,
    total: s.total,
    current: st.status === "playing" && st.current === s.index,
    you: view.me === s.index,
  }));
  const showPreview = st.status === "playing" && st.phase === "play" && st.turn && st.turn.throws > 0;
  const preview = showPreview ? { seat: st.current, sheet: st.sheet || [], clickable: view.canPick, onPick: view.onPick } : null;
  return renderSheet(rules, columns, preview);
}
