// The home page: choose the rules, the seats, the timer and the coach; create the table.

import { api, el, link, savedName, saveName } from "./api.js";
import { apiErrorText, pick, t } from "./i18n.js";
import { navigate } from "./nav.js";
import { planAutoSit } from "./table.js";

export const LEVELS = ["beginner", "casual", "strong", "optimal", "greedy", "heuristic", "random"];
const TIMERS = [null, 30, 60, 120];
const MAX_SEATS = 8;

export function mount(root) {
  const form = {
    presets: null,
    rules: "generala",
    seats: [{ kind: "human" }, { kind: "bot", level: "casual" }],
    timer: null,
    coach: true,
    name: savedName(),
    error: "",
    busy: false,
  };
  let destroyed = false;

  api
    .presets()
    .then((list) => {
      if (destroyed) return;
      form.presets = Array.isArray(list) ? list : [];
      if (form.presets.length && !form.presets.some((p) => p.name === form.rules)) form.rules = form.presets[0].name;
      render();
    })
    .catch((exc) => {
      form.presets = [];
      form.error = apiErrorText(exc);
      render();
    });

  const firstHuman = () => form.seats.findIndex((s) => s.kind === "human");
  const preset = () => (form.presets || []).find((p) => p.name === form.rules) || null;

  function countProblem() {
    const p = preset();
    if (!p) return "";
    const n = form.seats.length;
    return n < p.min_players || n > p.max_players ? t("home.badcount", { min: p.min_players, max: p.max_players }) : "";
  }

  async function create(ev) {
    ev.preventDefault();
    if (form.busy || countProblem()) return;
    const name = form.name.trim();
    const human = firstHuman();
    if (human >= 0 && (name.length < 1 || name.length > 24)) {
      form.error = t("err.badname");
      render();
      return;
    }
    const p = preset();
    form.busy = true;
    form.error = "";
    render();
    try {
      const made = await api.createTable({
        rules: form.rules,
        seats: form.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "human" })),
        timer: form.timer,
        coach: Boolean(p && p.coach && form.coach),
      });
      if (human >= 0) {
        saveName(name);
        planAutoSit(made.id, human, name);
      }
      if (!destroyed) navigate(made.url || `/t/${made.id}`);
    } catch (exc) {
      form.busy = false;
      form.error = exc.message;
      render();
    }
  }

  function seatRow(seat, i) {
    const kind = el(
      "select",
      {
        "data-testid": `seat-kind-${i}`,
        "aria-label": `${t("home.seat", { n: i + 1 })}`,
        onchange: (ev) => {
          form.seats[i] = ev.target.value === "bot" ? { kind: "bot", level: "casual" } : { kind: "human" };
          render();
        },
      },
      el("option", { value: "human", selected: seat.kind === "human" }, t("home.human")),
      el("option", { value: "bot", selected: seat.kind === "bot" }, t("home.bot")),
    );
    const level =
      seat.kind === "bot"
        ? el(
            "select",
            {
              "data-testid": `seat-level-${i}`,
              "aria-label": `${t("home.level")} (${t("home.seat", { n: i + 1 })})`,
              onchange: (ev) => {
                form.seats[i].level = ev.target.value;
              },
            },
            LEVELS.map((lv) => el("option", { value: lv, selected: seat.level === lv }, t(`level.${lv}`))),
          )
        : el("span", { class: "seat-filler" }, i === firstHuman() ? t("table.you") : "");
    const remove = el(
      "button",
      {
        type: "button",
        class: "btn icon ghost",
        "data-testid": `seat-remove-${i}`,
        "aria-label": t("home.remove", { n: i + 1 }),
        title: t("home.remove", { n: i + 1 }),
        disabled: form.seats.length <= 1,
        onclick: () => {
          form.seats.splice(i, 1);
          render();
        },
      },
      "×",
    );
    return el("li", { class: "seat-row" }, el("span", { class: "seat-no" }, String(i + 1)), kind, level, remove);
  }

  function render() {
    document.title = t("app.title");
    if (form.presets === null) {
      root.replaceChildren(el("p", { class: "loading" }, t("common.loading")));
      return;
    }
    const p = preset();
    const problem = countProblem();
    const rules = el(
      "select",
      {
        id: "rules",
        "data-testid": "rules",
        onchange: (ev) => {
          form.rules = ev.target.value;
          render();
        },
      },
      form.presets.map((ps) =>
        el("option", { value: ps.name, selected: ps.name === form.rules }, pick(ps.title, ps.name)),
      ),
    );
    const nameInput = el("input", {
      id: "name",
      type: "text",
      maxlength: "24",
      autocomplete: "nickname",
      "data-testid": "name",
      value: form.name,
      oninput: (ev) => {
        form.name = ev.target.value;
      },
    });
    const timer = el(
      "select",
      {
        id: "timer",
        "data-testid": "timer",
        onchange: (ev) => {
          form.timer = ev.target.value ? Number(ev.target.value) : null;
        },
      },
      TIMERS.map((s) =>
        el(
          "option",
          { value: s === null ? "" : String(s), selected: form.timer === s },
          s === null ? t("home.timer.off") : t("home.timer.s", { n: s }),
        ),
      ),
    );
    const coachAllowed = Boolean(p && p.coach);
    const coach = el(
      "label",
      { class: `check${coachAllowed ? "" : " disabled"}` },
      el("input", {
        type: "checkbox",
        "data-testid": "coach",
        checked: coachAllowed && form.coach,
        disabled: !coachAllowed,
        onchange: (ev) => {
          form.coach = ev.target.checked;
        },
      }),
      el("span", {}, coachAllowed ? t("home.coach") : t("home.coach.none")),
    );
    const gamesLink = link("/games", t("nav.games").toLowerCase());
    const boardLink = link("/leaderboard", t("nav.leaderboard").toLowerCase());
    const linksText = t("home.links", { games: "\u0000", leaderboard: "\u0001" }).split(/([\u0000\u0001])/);
    root.replaceChildren(
      el(
        "section",
        { class: "home card" },
        el("h1", {}, t("home.heading")),
        el("p", { class: "muted" }, t("home.intro")),
        el(
          "form",
          { class: "create-form", onsubmit: create, novalidate: true },
          el("div", { class: "field" }, el("label", { for: "name" }, t("home.name")), nameInput),
          el(
            "div",
            { class: "field" },
            el("label", { for: "rules" }, t("home.rules")),
            rules,
            p ? el("p", { class: "hint-text" }, t("home.players", { min: p.min_players, max: p.max_players })) : null,
          ),
          el(
            "fieldset",
            { class: "field seats" },
            el("legend", {}, t("home.seats")),
            el("ol", { class: "seat-list" }, form.seats.map(seatRow)),
            el(
              "button",
              {
                type: "button",
                class: "btn ghost small",
                "data-testid": "seat-add",
                disabled: form.seats.length >= MAX_SEATS,
                onclick: () => {
                  form.seats.push({ kind: "bot", level: "casual" });
                  render();
                },
              },
              `+ ${t("home.add")}`,
            ),
          ),
          el(
            "div",
            { class: "field-row" },
            el("div", { class: "field" }, el("label", { for: "timer" }, t("home.timer")), timer),
            el("div", { class: "field" }, coach),
          ),
          problem ? el("p", { class: "form-error", "data-testid": "count-error" }, problem) : null,
          form.error
            ? el("p", { class: "form-error", role: "alert", "data-testid": "create-error" }, form.error)
            : null,
          el(
            "button",
            {
              type: "submit",
              class: "btn primary big wide",
              "data-testid": "create",
              disabled: form.busy || Boolean(problem),
            },
            form.busy ? t("home.creating") : t("home.create"),
          ),
        ),
        el(
          "p",
          { class: "muted links" },
          linksText.map((part) => (part === "\u0000" ? gamesLink : part === "\u0001" ? boardLink : part)),
        ),
      ),
    );
  }

  render();
  return {
    rerender: render,
    destroy() {
      destroyed = true;
    },
  };
}
