// The home page: choose the rules, the seats, the timer and the coach; create the table.

import { api, el, link, savedName, saveName, when } from "./api.js";
import { houseRulesEditor } from "./houserules.js";
import { apiErrorText, lang, pick, t } from "./i18n.js";
import { navigate } from "./nav.js";
import { planAutoSit } from "./table.js";

export const LEVELS = ["beginner", "casual", "strong", "optimal", "greedy", "heuristic", "random"];
const TIMERS = [null, 30, 60, 120];
const TURN_DAYS = [1, 3, 7]; // turn-based games: days per turn (web/turnbased.py), picked from the same list
const PROFILE = "__profile__"; // the rules picker's entry for house rules typed or uploaded as TOML
const CHECK_MS = 300; // a profile is checked this long after the last key
const EXAMPLE = 'base = "generala"\nname = "club"\nlocked_holds = true\n\n[box.generala]\nvalue = 60\n';
const MAX_SEATS = 8;

export function mount(root) {
  const form = {
    presets: null,
    rules: "generala",
    seats: [{ kind: "human" }, { kind: "bot", level: "casual" }],
    timer: null,
    coach: true,
    listed: false, // "open to anyone": shown in the lobby; by link only otherwise
    sameDice: false, // duplicate dice: everyone's turn n starts with the same throw (web/duplicate.py)
    name: savedName(),
    error: "",
    busy: false,
    useProfile: false,
    profile: "",
    checked: null, // the server's answer for the profile as typed: {ok, ...} or null while unchecked
    handEdited: false, // the TOML was typed or uploaded: the fields stand aside until asked back
  };
  let editor = null; // the house rules' fields, made the first time house rules are picked
  let destroyed = false;
  let checkTimer = null;
  let checkSeq = 0;

  // house rules: the text box and the file picker are built once, so typing never loses the caret
  const profileBox = el("textarea", {
    id: "profile",
    rows: "8",
    spellcheck: "false",
    "data-testid": "profile",
    placeholder: EXAMPLE,
  });
  const profileFile = el("input", { type: "file", accept: ".toml,text/plain", "data-testid": "profile-file" });
  const profileStatus = el("p", { class: "profile-status", "data-testid": "profile-status", "aria-live": "polite" });
  profileBox.addEventListener("input", () => {
    handEdit();
    form.profile = profileBox.value;
    form.checked = null;
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkProfile, CHECK_MS);
    showCheck();
  });
  profileFile.addEventListener("change", async () => {
    const file = profileFile.files && profileFile.files[0];
    if (!file) return;
    profileBox.value = await file.text();
    handEdit();
    form.profile = profileBox.value;
    checkProfile();
  });

  const backToFields = el("button", { type: "button", class: "btn small ghost", "data-testid": "house-fields-back", hidden: true });
  backToFields.addEventListener("click", () => {
    form.handEdited = false;
    backToFields.hidden = true;
    if (editor) {
      editor.setEnabled(true);
      fromFields(editor.toml());
    }
  });
  const advancedLabel = el("summary", {});
  const profileLabel = el("label", { for: "profile" });
  const uploadLabel = el("span", {});
  const advanced = el(
    "details",
    { class: "house-advanced", "data-testid": "house-advanced" },
    advancedLabel,
    profileLabel,
    profileBox,
    el("label", { class: "file-pick" }, uploadLabel, profileFile),
    backToFields,
  );

  function handEdit() {
    if (form.handEdited) return;
    form.handEdited = true;
    backToFields.hidden = false;
    if (editor) editor.setEnabled(false);
  }

  /** The fields wrote new TOML: it is the profile now (checked after a pause, as if typed). */
  function fromFields(toml) {
    if (form.handEdited) return;
    profileBox.value = toml;
    form.profile = toml;
    form.checked = null;
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkProfile, CHECK_MS);
    showCheck();
  }

  async function checkProfile() {
    const seq = ++checkSeq;
    if (!form.profile.trim()) {
      form.checked = null;
      render();
      return;
    }
    try {
      const resp = await fetch("/api/profiles/check", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ profile: form.profile, lang: lang() }),
      });
      const data = await resp.json();
      if (seq !== checkSeq || destroyed) return; // a later key press has a newer answer coming
      form.checked = data;
    } catch (exc) {
      if (seq !== checkSeq || destroyed) return;
      form.checked = { ok: false, error: apiErrorText({ status: 0, message: String(exc) }), line: null };
    }
    render();
  }

  function showCheck() {
    const c = form.checked;
    if (!form.profile.trim()) profileStatus.textContent = t("home.profile.empty");
    else if (!c) profileStatus.textContent = t("home.profile.checking");
    else if (c.ok)
      profileStatus.textContent = t("home.profile.ok", { title: pick(c.title, c.name), boxes: c.boxes, dice: c.dice });
    else profileStatus.textContent = c.line ? t("home.profile.line", { line: c.line, error: c.error }) : c.error;
    profileStatus.className = `profile-status${c && c.ok ? " ok" : c ? " bad" : ""}`;
  }

  // the person's games in play (turn-based ones especially): those where it is their turn first
  let mine = [];
  api
    .myTables()
    .then((list) => {
      mine = Array.isArray(list) ? list : [];
      if (!destroyed && mine.length) render();
    })
    .catch(() => {}); // a list to come back to, never a reason to fail the page

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
  const preset = () => {
    if (form.useProfile) return form.checked && form.checked.ok ? form.checked : null;
    return (form.presets || []).find((p) => p.name === form.rules) || null;
  };

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
        ...(form.useProfile ? { profile: form.profile } : { rules: form.rules }),
        seats: form.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "human" })),
        ...(typeof form.timer === "string" ? { turn_based: { hours: 24 * Number(form.timer.slice(5)) } } : { timer: form.timer }),
        coach: Boolean(p && p.coach && form.coach),
        listed: form.listed,
        same_dice: form.sameDice,
      });
      if (human >= 0) {
        saveName(name);
        planAutoSit(made.id, human, name);
      }
      if (!destroyed) navigate(made.url || `/t/${made.id}`);
    } catch (exc) {
      form.busy = false;
      form.error = apiErrorText(exc); // in the page's language where it knows the refusal
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
            // levels (how well a bot plays) apart from the algorithms behind them
            [
              [t("home.levels"), LEVELS.slice(0, 4)],
              [t("home.algorithms"), LEVELS.slice(4)],
            ].map(([label, group]) =>
              el(
                "optgroup",
                { label },
                group.map((lv) => el("option", { value: lv, selected: seat.level === lv }, t(`level.${lv}`))),
              ),
            ),
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
          form.useProfile = ev.target.value === PROFILE;
          if (!form.useProfile) form.rules = ev.target.value;
          else if (!editor) editor = houseRulesEditor({ base: form.rules, presets: form.presets, onChange: fromFields });
          render();
        },
      },
      form.presets.map((ps) =>
        el(
          "option",
          { value: ps.name, selected: !form.useProfile && ps.name === form.rules },
          pick(ps.title, ps.name),
        ),
      ),
      el("option", { value: PROFILE, selected: form.useProfile }, t("home.houserules")),
    );
    const focused = document.activeElement === profileBox;
    const caret = [profileBox.selectionStart, profileBox.selectionEnd];
    profileBox.setAttribute("aria-label", t("home.profile"));
    showCheck();
    advancedLabel.textContent = t("house.advanced");
    profileLabel.textContent = t("home.profile");
    uploadLabel.textContent = t("home.profile.upload");
    backToFields.textContent = t("house.fieldsback");
    const houseRules = form.useProfile
      ? el(
          "div",
          { class: "field house-rules", "data-testid": "house-rules" },
          editor ? editor.element : null,
          advanced,
          profileStatus,
        )
      : null;
    const active = document.activeElement; // a field of the house rules keeps the focus across this render
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
          const v = ev.target.value;
          form.timer = v.startsWith("days:") ? v : v ? Number(v) : null;
        },
      },
      TIMERS.map((s) =>
        el(
          "option",
          { value: s === null ? "" : String(s), selected: form.timer === s },
          s === null ? t("home.timer.off") : t("home.timer.s", { n: s }),
        ),
      ),
      // a game played over days: each player has this long for a turn, and the game waits for them
      el(
        "optgroup",
        { label: t("home.turnbased") },
        TURN_DAYS.map((d) => el("option", { value: `days:${d}`, selected: form.timer === `days:${d}` }, t("home.turnbased.days", { n: d }))),
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
    const listed = el(
      "label",
      { class: "check" },
      el("input", {
        type: "checkbox",
        "data-testid": "listed",
        checked: form.listed,
        onchange: (ev) => {
          form.listed = ev.target.checked;
        },
      }),
      el("span", {}, t("home.listed")),
    );
    const sameDice = el(
      "label",
      { class: "check" },
      el("input", {
        type: "checkbox",
        "data-testid": "same-dice",
        checked: form.sameDice,
        onchange: (ev) => {
          form.sameDice = ev.target.checked;
        },
      }),
      el("span", {}, t("home.samedice")),
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
        mine.length
          ? el(
              "div",
              { class: "my-games", "data-testid": "my-games" },
              el("h2", {}, t("home.mine")),
              el("ul", {}, mine.map((g) =>
                el("li", { "data-testid": `my-game-${g.id}` },
                  link(g.url, pick(g.rules, g.id)),
                  " ",
                  g.your_turn ? el("strong", { class: "badge your-turn" }, t("home.mine.yourturn")) : el("span", { class: "muted" }, t("home.mine.waiting")),
                  g.deadline ? el("span", { class: "muted small" }, ` · ${t("home.mine.until", { when: when(g.deadline, lang()) })}`) : null,
                ))),
            )
          : null,
        el(
          "p",
          { class: "play-now" },
          link("/lobby", t("home.playnow"), { class: "btn primary big", "data-testid": "play-now" }),
          el("span", { class: "muted" }, ` ${t("home.playnow.why")}`),
        ),
        el("p", { class: "muted small" }, link("/sheet", t("nav.sheet"), { "data-testid": "real-dice" }), ` · ${t("home.realdice")}`),
        el("p", { class: "muted small" }, link("/clubs", t("nav.clubs"), { "data-testid": "clubs-home" }), ` · ${t("home.clubs")}`),
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
          houseRules,
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
            el("div", { class: "field" }, coach, listed, sameDice),
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
              disabled: form.busy || Boolean(problem) || (form.useProfile && !preset()),
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
    if (focused) {
      profileBox.focus(); // re-attached by the render above: the caret stays where the player types
      profileBox.setSelectionRange(caret[0], caret[1]);
    } else if (editor && active && editor.element.contains(active) && document.activeElement !== active) {
      active.focus();
    }
  }

  render();
  return {
    rerender() {
      if (editor) editor.refresh(); // the fields' words in the new language
      render();
    },
    destroy() {
      destroyed = true;
    },
  };
}
