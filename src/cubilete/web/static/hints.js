// The table page's coach: the options for the dice on the table, best first; a keep can be held and a box
// written from its line.

import { el } from "./api.js";
import { num, numbersIn, t } from "./i18n.js";

/**
 * Fill `box` with the coach's `hint` (null: hidden). `act` says what the player may do from a line:
 * `canHold` (the dice may be held now), `hold(faces)` (hold exactly these dice), `writable(slot)` (the
 * points of a box this player may write now, else null) and `write(slot)`.
 */
export function renderHints(box, hint, act) {
  if (!hint) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const items = hint.advice.map((a, i) =>
    el(
      "li",
      { class: i === 0 ? "best" : "", "data-testid": `advice-${i}`, "data-slot": a.slot || null },
      Array.isArray(a.keep) && act.canHold
        ? el(
            "button",
            {
              type: "button",
              class: "advice-text linklike",
              title: t("table.hint.apply"),
              onclick: () => act.hold(a.keep), // the player still presses Roll
            },
            numbersIn(a.text),
          )
        : act.writable(a.slot)
          ? el(
              "button",
              {
                type: "button",
                class: "advice-text linklike",
                "data-slot": a.slot,
                title: t("table.hint.write"),
                // the coach's "score Sixes (18)" writes it, as the sheet's button would (a zero asks first)
                onclick: () => act.write(a.slot),
              },
              numbersIn(a.text),
            )
          : el("span", { class: "advice-text" }, a.text),
      el(
        "span",
        { class: "advice-nums" },
        // approximate values rank the options; shown as an expected final score they would mislead
        typeof a.expected === "number"
          ? t(hint.exact ? "table.hint.expected" : "table.hint.value", { value: num(a.expected, 1) })
          : "",
        typeof a.loss === "number" && a.loss > 0.0005 ? ` · ${t("table.hint.loss", { value: num(a.loss, 2) })}` : "",
      ),
    ),
  );
  box.hidden = false;
  box.replaceChildren(
    el("h2", {}, t("table.hints"), hint.exact ? "" : ` ${t("table.hint.approx")}`),
    items.length ? el("ol", {}, items) : el("p", {}, t("table.hint.none")),
    ...(hint.to_win && hint.to_win.length
      ? [el("ul", { class: "to-win", "data-testid": "to-win" }, hint.to_win.map((line) => el("li", {}, numbersIn(line))))]
      : []),
  );
}
