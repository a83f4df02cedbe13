// What the club, tournament and real-dice pages do with their forms and buttons, written once.

import { toast } from "./api.js";
import { apiErrorText } from "./i18n.js";
import { navigate } from "./nav.js";

/**
 * Send a create form: its button is off (`state.busy`, drawn by `render`) while `make()` runs, then the page
 * goes to what was made (`made.url`, after `keep(made)`) if it is still shown (`alive()`); a refusal is
 * toasted and the form comes back as it was.
 */
export async function createAndGo(state, render, make, alive, keep = () => {}) {
  state.busy = true;
  render();
  try {
    const made = await make();
    keep(made);
    if (alive()) navigate(made.url);
  } catch (exc) {
    state.busy = false;
    toast(apiErrorText(exc));
    render();
  }
}

/** Run one of a page's actions with its buttons off, toast a refusal, then load the page's data again. */
export async function actThenLoad(state, render, call, load) {
  state.busy = true;
  render();
  try {
    await call();
  } catch (exc) {
    toast(apiErrorText(exc));
  }
  state.busy = false;
  await load();
}
