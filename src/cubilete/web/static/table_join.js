// The table page's seats to take: a name field and a Sit button per empty human seat, or "watching" for
// a spectator. Rebuilt only when what it shows changes, so focus and typing survive the table's updates.

import { el, savedName } from "./api.js";
import { lang, t } from "./i18n.js";

/**
 * Fill `box` for state `st`: `page.joinNames` keeps what was typed per seat, `page.joinSig` what is
 * shown; `seated` says whether this browser has a seat; `sit(index)` takes seat `index`.
 */
export function renderJoin(box, st, page, seated, sit) {
  const empty = st.seats.filter((s) => s.kind === "human" && !s.name && !s.held).map((s) => s.index);
  const canJoin = !seated && st.status !== "finished" && empty.length > 0;
  const sig = `${lang()}|${canJoin}|${empty.join(",")}|${seated}|${st.status}`;
  if (sig === page.joinSig) return; // keep focus and typing in the name fields
  page.joinSig = sig;
  if (canJoin) {
    const remembered = savedName();
    const rows = empty.map((i) => {
      if (!(i in page.joinNames)) page.joinNames[i] = remembered;
      const input = el("input", {
        type: "text",
        maxlength: "24",
        autocomplete: "nickname",
        placeholder: t("home.name"),
        "aria-label": t("table.sitname", { n: i + 1 }),
        "data-testid": `seat-name-input-${i}`,
        value: page.joinNames[i],
      });
      input.addEventListener("input", () => {
        page.joinNames[i] = input.value;
      });
      input.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter") sit(i);
      });
      return el(
        "div",
        { class: "join-row" },
        el("span", { class: "join-seat" }, t("home.seat", { n: i + 1 })),
        input,
        el("button", { type: "button", class: "btn primary", "data-testid": `sit-${i}`, onclick: () => sit(i) }, t("table.sit")),
      );
    });
    box.replaceChildren(el("h2", {}, t("table.sit")), ...rows);
    box.hidden = false;
  } else if (!seated) {
    box.replaceChildren(el("p", { class: "spectating", "data-testid": "spectating" }, t("table.spectating")));
    box.hidden = false;
  } else {
    box.replaceChildren();
    box.hidden = true;
  }
}
