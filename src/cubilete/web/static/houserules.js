// House rules without TOML: fields that start from a preset (dice, throws, held dice, the upper bonus, and
// each box: in play or not, its points, its servida value, whether a servida wins at once). The fields
// write the profile's TOML (docs/RULES.md, "House rules"), which the create form checks with the server as
// it changes and which stays editable by hand under "Advanced".

import { api, el } from "./api.js";
import { pick, t } from "./i18n.js";

const GAME_FIELDS = [
  // [key, kind, min, max]
  ["dice", "int", 1, 10],
  ["throws", "int", 1, 6],
  ["locked_holds", "bool"],
  ["upper_bonus_threshold", "int", 0, 500],
  ["upper_bonus", "int", 0, 500],
];

/** A base box's value of a field, with the defaults rules_to_dict leaves out. */
function boxField(box, key) {
  const defaults = { points: "fixed", value: 0, first_throw_value: null, first_throw_bonus: 0, instant_win: false };
  return key in box ? box[key] : defaults[key];
}

const tomlValue = (v) => (typeof v === "boolean" ? String(v) : typeof v === "number" ? String(v) : JSON.stringify(v));

/**
 * The TOML of house rules: the base's name and only what differs from it, e.g.
 * base = "generala" / throws = 2 / remove = ["doble"] / [box.generala] value = 60.
 * ``edits``: {title, game: {key: value}, boxes: {id: {on, value, first_throw_value, instant_win}}}.
 */
export function houseToml(base, edits) {
  const lines = [`base = ${JSON.stringify(base.name)}`];
  const title = (edits.title || "").trim();
  if (title) lines.push(`title = ${JSON.stringify(title)}`);
  for (const [key] of GAME_FIELDS) {
    const v = edits.game[key];
    if (v !== undefined && v !== null && v !== base[key]) lines.push(`${key} = ${tomlValue(v)}`);
  }
  const removed = base.boxes.filter((b) => edits.boxes[b.id] && edits.boxes[b.id].on === false).map((b) => b.id);
  if (removed.length) lines.push(`remove = [${removed.map((id) => JSON.stringify(id)).join(", ")}]`);
  for (const box of base.boxes) {
    const e = edits.boxes[box.id];
    if (!e || e.on === false) continue;
    const changed = [];
    for (const key of ["value", "first_throw_value", "instant_win"]) {
      if (e[key] !== undefined && e[key] !== null && e[key] !== boxField(box, key)) changed.push(`${key} = ${tomlValue(e[key])}`);
    }
    if (changed.length) lines.push("", `[box.${box.id}]`, ...changed);
  }
  return lines.join("\n") + "\n";
}

/** Which fields a box offers: points only where they are fixed, servida and instant win where they apply. */
function boxOffers(box) {
  const scored = box.kind !== "upper" && box.kind !== "chance";
  const five = box.kind === "groups" && Array.isArray(box.groups) && box.groups.length === 1 && box.groups[0] >= 5;
  return {
    value: boxField(box, "points") === "fixed",
    servida: scored && !boxField(box, "first_throw_bonus"),
    instant: five || boxField(box, "instant_win"),
  };
}

/**
 * The editor: ``houseRulesEditor({ base, presets, onChange })`` -> { element, setBase(name), refresh(), setEnabled(on) }.
 * Its DOM is built once per base, so typing never loses the caret; ``onChange(toml)`` after every change.
 */
export function houseRulesEditor({ base, presets, onChange }) {
  const edits = { title: "", game: {}, boxes: {} };
  let rules = null;
  let enabled = true;
  const baseSelect = el("select", { id: "house-base", "data-testid": "house-base" });
  const titleInput = el("input", { id: "house-title", type: "text", maxlength: "60", "data-testid": "house-title" });
  const gameBox = el("div", { class: "house-game" });
  const boxesBox = el("div", { class: "house-boxes" });
  const note = el("p", { class: "hint-text", "data-testid": "house-fields-note", hidden: true });
  const element = el("div", { class: "house-fields", "data-testid": "house-fields" });

  baseSelect.addEventListener("change", () => setBase(baseSelect.value));
  titleInput.addEventListener("input", () => {
    edits.title = titleInput.value;
    changed();
  });

  function changed() {
    if (rules && enabled) onChange(houseToml(rules, edits));
  }

  function number(id, value, min, max, onValue, label) {
    const input = el("input", {
      id,
      type: "number",
      inputmode: "numeric",
      min: String(min),
      max: String(max),
      step: "1",
      value: String(value),
      "data-testid": id,
      "aria-label": label,
    });
    input.addEventListener("input", () => {
      const n = input.value.trim() === "" ? null : Number(input.value);
      onValue(Number.isInteger(n) ? n : null);
      changed();
    });
    return input;
  }

  function check(id, checked, onValue, label) {
    const input = el("input", { id, type: "checkbox", checked, "data-testid": id, "aria-label": label });
    input.addEventListener("change", () => {
      onValue(input.checked);
      changed();
    });
    return input;
  }

  function buildGame() {
    const hasUpper = rules.boxes.some((b) => b.kind === "upper");
    const rows = [];
    for (const [key, kind, min, max] of GAME_FIELDS) {
      if (key.startsWith("upper_") && !hasUpper) continue;
      const id = `house-${key.replaceAll("_", "-")}`;
      const label = t(`house.${key}`);
      const input =
        kind === "bool"
          ? check(id, Boolean(rules[key]), (v) => (edits.game[key] = v), label)
          : number(id, rules[key], min, max, (v) => (edits.game[key] = v), label);
      rows.push(
        kind === "bool"
          ? el("label", { class: "check" }, input, el("span", {}, label))
          : el("label", { class: "house-num" }, el("span", {}, label), input),
      );
    }
    gameBox.replaceChildren(...rows);
  }

  function buildBoxes(labels) {
    const head = el(
      "tr",
      {},
      el("th", { scope: "col" }, t("house.box")),
      el("th", { scope: "col" }, t("house.points")),
      el("th", { scope: "col" }, t("house.servida")),
      el("th", { scope: "col" }, t("house.instant")),
    );
    const rows = rules.boxes.map((box) => {
      const offers = boxOffers(box);
      const e = (edits.boxes[box.id] = { on: true });
      const name = pick(labels[box.id], box.name);
      const on = check(`house-on-${box.id}`, true, (v) => (e.on = v), t("house.inplay", { box: name }));
      const value = offers.value
        ? number(`house-value-${box.id}`, boxField(box, "value"), 0, 1000, (v) => (e.value = v), t("house.points.of", { box: name }))
        : el("span", { class: "muted" }, t("house.points.dice"));
      const servidaNow = boxField(box, "first_throw_value");
      const servida = offers.servida
        ? number(
            `house-servida-${box.id}`,
            servidaNow === null ? "" : servidaNow,
            0,
            1000,
            (v) => (e.first_throw_value = v),
            t("house.servida.of", { box: name }),
          )
        : "";
      const instant = offers.instant
        ? check(`house-instant-${box.id}`, Boolean(boxField(box, "instant_win")), (v) => (e.instant_win = v), t("house.instant.of", { box: name }))
        : "";
      return el(
        "tr",
        { "data-testid": `house-box-${box.id}` },
        el("th", { scope: "row" }, el("label", { class: "check" }, on, el("span", {}, name))),
        el("td", {}, value),
        el("td", {}, servida),
        el("td", {}, instant),
      );
    });
    boxesBox.replaceChildren(
      el("div", { class: "table-scroll" }, el("table", { class: "house-table" }, el("thead", {}, head), el("tbody", {}, rows))),
    );
  }

  async function setBase(name) {
    baseSelect.value = name;
    const seq = (setBase.seq = (setBase.seq || 0) + 1);
    let detail;
    try {
      detail = await api.preset(name);
    } catch {
      return; // the create form's own check says what is wrong with the connection
    }
    if (seq !== setBase.seq) return; // another base was picked meanwhile
    rules = detail.rules;
    edits.game = {};
    edits.boxes = {};
    buildGame();
    buildBoxes(detail.labels);
    changed();
  }

  function refresh() {
    // the page's language changed: labels again (the values typed so far start over from the base)
    baseSelect.replaceChildren(...presets.map((p) => el("option", { value: p.name, selected: p.name === baseSelect.value }, pick(p.title, p.name))));
    element.replaceChildren(
      el("div", { class: "field" }, el("label", { for: "house-base" }, t("house.base")), baseSelect),
      el("div", { class: "field" }, el("label", { for: "house-title" }, t("house.title")), titleInput),
      note,
      gameBox,
      boxesBox,
    );
    titleInput.placeholder = t("house.title.example");
    if (baseSelect.value) setBase(baseSelect.value);
  }

  function setEnabled(on) {
    enabled = on;
    note.hidden = on;
    note.textContent = on ? "" : t("house.handedited");
    for (const input of element.querySelectorAll("input, select")) input.disabled = !on;
  }

  baseSelect.replaceChildren(...presets.map((p) => el("option", { value: p.name, selected: p.name === base }, pick(p.title, p.name))));
  baseSelect.value = base;
  refresh();
  return { element, refresh, setEnabled, toml: () => (rules ? houseToml(rules, edits) : "") };
}
