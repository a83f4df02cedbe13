// The table page's keyboard: the same actions as the buttons, in the terminal game's keys
// (1-6 hold, r or space throw, h hint, w or Enter write the coach's box, s stand, a follow the coach,
// u undo, ? the list of keys).

/**
 * Install the table's key handlers on `document`; returns { toggleKeys, remove }.
 * `page` is the table's state (st, table, hint, held), `$` its elements (modal, buttons, sheet, keys,
 * keysToggle); `ops` the table's actions: mySeat(), myTurn(), undo(), toggle(pos), act(action),
 * canHold(), hold(faces) (hold exactly these dice and remember them).
 */
export function installTableKeys(page, $, ops) {
  function onKey(ev) {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !page.st) return;
    if ((ev.key === "u" || ev.key === "U") && page.st.undo && ops.mySeat() !== null && $.modal.hidden) {
      ops.undo(); // also while the bots answer the player's move
      ev.preventDefault();
      return;
    }
    if (!ops.myTurn()) return;
    if (!$.modal.hidden) {
      if (ev.key === "Escape") {
        $.modal.hidden = true;
        $.modal.replaceChildren();
      }
      return;
    }
    // Space and Enter on a focused button press that button, not the table's shortcut
    const onButton = ev.target instanceof HTMLButtonElement || ev.target instanceof HTMLAnchorElement;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const n = Number(ev.key);
    if (Number.isInteger(n) && n >= 1 && page.table && n <= page.table.rules.dice) {
      ops.toggle(n - 1);
      ev.preventDefault();
    } else if (key === "r" || (key === " " && !onButton)) {
      pressButton("roll");
      ev.preventDefault();
    } else if (key === "h") {
      pressButton("hint");
    } else if (key === "w" || (key === "Enter" && !onButton)) {
      writeSuggested();
      ev.preventDefault();
    } else if (key === "s" && page.st.can_stand) {
      ops.act({ stand: true });
      ev.preventDefault();
    } else if (key === "a" && page.hint && page.hint.advice && page.hint.advice.length) {
      followAdvice(page.hint.advice[0]); // the coach's first choice: hold its dice, or write its box
      ev.preventDefault();
    }
  }

  /** Do what an advice says: hold the dice it keeps (the player still throws), or press its box. */
  function followAdvice(advice) {
    if (Array.isArray(advice.keep)) {
      if (ops.canHold()) ops.hold(advice.keep);
    } else if (advice.slot) {
      writeSuggested(); // the same path as W: the box's own button (a scratch still asks to confirm)
    }
  }

  // a key does what its button does, only when that button is there and enabled (same rules as a click)
  function pressButton(testid) {
    const button = $.buttons.querySelector(`[data-testid="${testid}"]`);
    if (button && !button.disabled) button.click();
  }

  // the coach's first advice, when it is a box and still for this state: the box's own button writes it
  function writeSuggested() {
    const hint = page.hint;
    const best = hint && hint.version === page.st.version ? hint.advice[0] : null;
    if (!best || !best.slot) return;
    const button = $.sheet.querySelector(`button[data-testid="slot-${best.slot}"]`);
    if (button && !button.disabled) button.click();
  }

  function onHelpKey(ev) {
    if (ev.key !== "?" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    toggleKeys();
  }

  function toggleKeys() {
    $.keys.hidden = !$.keys.hidden;
    $.keysToggle.setAttribute("aria-expanded", String(!$.keys.hidden));
  }

  document.addEventListener("keydown", onHelpKey);
  document.addEventListener("keydown", onKey);
  return {
    toggleKeys,
    remove() {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("keydown", onHelpKey);
    },
  };
}
