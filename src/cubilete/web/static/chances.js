// The table page's chances to win: one bar per seat, drawn from the numbers the server sent.

import { el } from "./api.js";
import { t } from "./i18n.js";

/**
 * Fill `box` with everyone's chance to win in state `st` (`win`: the server's { version, chances, exact });
 * hidden while there is nothing to show, faded while newer numbers are on their way.
 */
export function renderChances(box, st, win, seatName) {
  if (!win || st.status === "waiting" || st.seats.length < 2 || win.chances.length !== st.seats.length) {
    box.hidden = true;
    return;
  }
  const shown = percentages(win.chances);
  box.hidden = false;
  box.classList.toggle("stale", win.version !== st.version); // the new numbers are on their way
  box.setAttribute("aria-busy", String(win.version !== st.version));
  box.replaceChildren(
    el("h2", {}, t("table.chances"), win.exact ? "" : ` ${t("table.chances.estimated")}`),
    el(
      "ul",
      {},
      st.seats.map((seat, i) =>
        el(
          "li",
          { class: i === st.current ? "current" : "", "data-testid": `win-chance-${i}` },
          el("span", { class: "chance-name" }, seatName(i)),
          el(
            "span",
            { class: "chance-bar", role: "presentation" },
            el("span", { class: "chance-fill", style: `width: ${shown[i]}%` }),
          ),
          el("span", { class: "chance-pct", "data-testid": `win-pct-${i}` }, `${shown[i]}%`),
        ),
      ),
    ),
  );
}

/** Whole percentages adding up to exactly 100 (largest remainders). */
export function percentages(probabilities) {
  const total = probabilities.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return probabilities.map(() => 0);
  const raw = probabilities.map((p) => (100 * p) / total);
  const whole = raw.map(Math.floor);
  const order = raw.map((_, i) => i).sort((a, b) => whole[a] - raw[a] - (whole[b] - raw[b]) || a - b);
  let left = 100 - whole.reduce((a, b) => a + b, 0);
  for (const i of order) {
    if (left <= 0) break;
    whole[i] += 1;
    left -= 1;
  }
  return whole;
}
