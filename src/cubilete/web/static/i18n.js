// Every UI string in Spanish (rioplatense), Portuguese (Brazil) and English.
// t(key, params) fills {name}-style placeholders; server text never passes through here.
// The strings come from the .po catalogs through strings.js (generated: web/messages.py, tools/i18n.py).

import { S } from "./strings.js";

export const LANGS = ["es", "pt", "en"];
export const LANG_NAMES = { es: "Español", pt: "Português", en: "English" };
const STORE_KEY = "cubilete-lang";

/** The strings table (tests and tools check every language has every key). */
export const STRINGS = S;

function pickInitial() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    // storage may be disabled (private mode): fall back to the browser's languages
  }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

let current = pickInitial();
const listeners = new Set();

export function lang() {
  return current;
}

export function setLang(code) {
  if (!LANGS.includes(code) || code === current) return;
  current = code;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // not stored: the choice still holds for this page
  }
  document.documentElement.lang = code === "pt" ? "pt-BR" : code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The UI string for key in the current language, placeholders filled from params. */
export function t(key, params = {}) {
  const text = S[current][key] ?? S.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/**
 * A server refusal (an ApiError: status and the server's English message) in the current language.
 * The server's messages are matched by their start; one this page does not know shows its status.
 */
export function apiErrorText(exc) {
  const status = exc && typeof exc.status === "number" ? exc.status : -1;
  const message = exc && exc.message ? String(exc.message) : "";
  if (status === 0) return t("err.api.network");
  const known = [
    [/^there is no table /, "err.api.notable"],
    [/^there is no player /, "err.api.noplayer"],
    [/^player .* has no finished game/, "err.api.nogames"],
    [/^the record \(and its seed\) is published/, "err.api.recordlater"],
    [/^the review is made when the game ends/, "err.api.reviewlater"],
    [/^only official presets are ranked/, "err.api.notranked"],
    [/^too many tables created from this address/, "err.api.ratelimit"],
    [/^the server is solving \d+ other rule sets/, "err.api.solving"],
    [/^the coach is still solving these rules/, "err.api.coachsolving"],
    [/^the site has \d+ tables in play/, "err.api.full"],
    [/^this address already has \d+ tables waiting for players/, "err.api.waiting"],
    [/^too many profile checks from this address/, "err.api.checklimit"],
  ];
  for (const [pattern, key] of known) if (pattern.test(message)) return t(key);
  // a refusal this page has no words for keeps its specific reason (a house rule over the budget, say)
  return message ? `${t("err.api.http", { status })} ${message}` : t("err.api.http", { status });
}

/** A bot's name in the current language: "Bot fuerte" (a repeated level keeps its number: "Bot fuerte 2"). */
export function botName(level, storedName = "") {
  const number = /[- ](\d+)$/.exec(storedName || "");
  const words = t("table.botname", { level: t(`level.${level || "random"}`) });
  const name = words.charAt(0).toUpperCase() + words.slice(1); // "Greedy bot", "Bot goloso"
  return number ? `${name} ${number[1]}` : name;
}

/** A seat name as stored ("Strong bot 2" for a bot the server named) in the current language; people's stay. */
export function shownName(name) {
  const m = /^(Random|Greedy|Heuristic|Beginner|Casual|Strong|Optimal|Lookahead) bot(?:[- ](\d+))?$/.exec(String(name));
  return m ? botName(m[1].toLowerCase(), m[2] ? `x ${m[2]}` : "") : String(name);
}

/** A text from a {"es","pt","en"} object (rules titles, slot labels). */
export function pick(labels, fallback = "") {
  if (!labels || typeof labels !== "object") return labels == null ? fallback : String(labels);
  return labels[current] ?? labels.en ?? labels.es ?? fallback;
}

const formats = new Map();

/** A number in the current language (decimal comma in es/pt): every number the pages show goes through here. */
export function num(value, digits = 0) {
  const tag = current === "pt" ? "pt-BR" : current === "es" ? "es-AR" : "en";
  const key = `${tag}|${digits}`;
  if (!formats.has(key)) {
    formats.set(key, new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return formats.get(key).format(Number(value));
}

/** A text the server wrote with decimal points ("expected 160.6, 45.3% to win"), its decimals in the current language. */
export function numbersIn(text) {
  return String(text).replace(/\d+\.\d+/g, (m) => num(Number(m), m.length - m.indexOf(".") - 1));
}

/** A list of names joined the way the language does ("Ana y Bea"). */
export function joinNames(names) {
  const and = { es: " y ", pt: " e ", en: " and " }[current];
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + and + names[names.length - 1];
}

document.documentElement.lang = current === "pt" ? "pt-BR" : current;
