// HTTP calls, the browser's identity token, and small DOM helpers shared by the pages.

const TOKEN_KEY = "cubilete-token";
const NAME_KEY = "cubilete-name";

/** This browser's secret token: 32 hex chars made once and kept in localStorage. */
export function token() {
  let tok = null;
  try {
    tok = localStorage.getItem(TOKEN_KEY);
  } catch {
    // storage disabled: a token for this page only
  }
  if (!/^[0-9a-f]{32}$/.test(tok || "")) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    tok = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try {
      localStorage.setItem(TOKEN_KEY, tok);
    } catch {
      // keep it in memory only
    }
  }
  return tok;
}

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // not remembered: harmless
  }
}

/** The club organiser's key as a header (never in a URL, which ends up in logs). */
function clubKey(key) {
  return key ? { "X-Club-Key": key } : {};
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body, asMe = false, extra = {}) {
  const init = { method, headers: { Accept: "application/json", ...extra } };
  // a call made for the person carries their token in a header, never in the URL (URLs end up in logs)
  if (asMe) init.headers.Authorization = `Bearer ${token()}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch (exc) {
    throw new ApiError(0, String(exc && exc.message ? exc.message : exc));
  }
  let data = null;
  try {
    data = await resp.json();
  } catch {
    data = null;
  }
  if (!resp.ok) {
    const msg = data && typeof data.error === "string" ? data.error : `HTTP ${resp.status}`;
    throw new ApiError(resp.status, msg);
  }
  return data;
}

export const api = {
  presets: () => request("GET", "/api/presets"),
  preset: (name) => request("GET", `/api/presets/${encodeURIComponent(name)}`),
  createTable: (body) => request("POST", "/api/tables", body, true), // as the person: a club's game needs a member
  rematch: (id) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}, true),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  record: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  siteKey: () => request("GET", "/api/site-key"),
  verifyRecord: (record) => request("POST", "/api/verify", record),
  games: (preset, limit = 50) => {
    const q = new URLSearchParams({ limit: String(limit) });
    if (preset) q.set("preset", preset);
    return request("GET", `/api/games?${q}`);
  },
  review: (id, lang) => request("GET", `/api/games/${encodeURIComponent(id)}/review?${new URLSearchParams({ lang })}`),
  leaderboard: (preset) => request("GET", `/api/leaderboard?${new URLSearchParams({ preset })}`),
  ratings: (preset, sort) => request("GET", `/api/ratings?${new URLSearchParams({ preset, sort })}`),
  daily: () => request("GET", "/api/daily"),
  playDaily: (day, preset, name) =>
    request("POST", `/api/daily/${encodeURIComponent(day)}/${encodeURIComponent(preset)}/play`, { name }, true),
  dailyOptimal: (day, preset) => request("GET", `/api/daily/${encodeURIComponent(day)}/${encodeURIComponent(preset)}/optimal`),
  dailyStandings: (day, preset) => request("GET", `/api/daily/${encodeURIComponent(day)}/${encodeURIComponent(preset)}`),
  match: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/match`),
  player: (pid) => request("GET", `/api/players/${encodeURIComponent(pid)}`),
  tournaments: () => request("GET", "/api/tournaments"),
  myTables: () => request("GET", "/api/my/tables", undefined, true),
  createClub: (body) => request("POST", "/api/clubs", body, true),
  club: (id, key) => request("GET", `/api/clubs/${encodeURIComponent(id)}`, undefined, true, clubKey(key)),
  joinClub: (id, name) => request("POST", `/api/clubs/${encodeURIComponent(id)}/join`, { name }, true),
  leaveClub: (id) => request("POST", `/api/clubs/${encodeURIComponent(id)}/leave`, {}, true),
  clubAct: (id, what, body, key) => request("POST", `/api/clubs/${encodeURIComponent(id)}/${what}`, body, true, clubKey(key)),
  createSheet: (body) => request("POST", "/api/sheets", body, true),
  sheetReview: (id, lang) => request("GET", `/api/sheets/${encodeURIComponent(id)}/review?${new URLSearchParams({ lang })}`),
  sheetReplay: (id) => request("GET", `/api/sheets/${encodeURIComponent(id)}/replay`),
  sheet: (id, lang) => request("GET", `/api/sheets/${encodeURIComponent(id)}?${new URLSearchParams({ lang })}`, undefined, true),
  sheetStep: (id, step, lang) => request("POST", `/api/sheets/${encodeURIComponent(id)}/steps?${new URLSearchParams({ lang })}`, step, true),
  sheetUndo: (id, version, lang) => request("POST", `/api/sheets/${encodeURIComponent(id)}/undo?${new URLSearchParams({ lang })}`, { version }, true),
  sheetPreview: (id, dice, thrown, lang) =>
    request("POST", `/api/sheets/${encodeURIComponent(id)}/preview?${new URLSearchParams({ lang })}`, { dice, throw: thrown }),
  sheetAdvice: (id, dice, thrown, lang) =>
    request("POST", `/api/sheets/${encodeURIComponent(id)}/advice?${new URLSearchParams({ lang })}`, { dice, throw: thrown }),
  setNotices: (id, email) => request("POST", `/api/tables/${encodeURIComponent(id)}/notices`, { email }, true),
  createTournament: (body) => request("POST", "/api/tournaments", body, true),
  tournament: (id) => request("GET", `/api/tournaments/${encodeURIComponent(id)}`, undefined, true),
  joinTournament: (id, name) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/join`, { name }, true),
  leaveTournament: (id) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/leave`, {}, true),
  addTournamentBots: (id, level, count) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/bots`, { level, count }, true),
  startTournament: (id) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/start`, {}, true),
};

/**
 * Build an element: el("button", {class: "x", "data-testid": "roll", onclick: fn}, "text", child).
 * Strings become text nodes (never HTML), so names and server text cannot inject markup.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "style") setStyle(node, value);
    else if (key === "value") node.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected") node[key] = Boolean(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/**
 * Inline styles through the CSSOM (node.style), which the site's CSP allows; a style attribute
 * (setAttribute("style", ...)) is blocked by style-src 'self' and would be dropped.
 * value: {width: "7%"} or "width: 7%; color: red".
 */
function setStyle(node, value) {
  const pairs =
    typeof value === "string"
      ? value.split(";").map((part) => part.split(":")).filter((kv) => kv.length === 2)
      : Object.entries(value);
  for (const [prop, val] of pairs) node.style.setProperty(String(prop).trim(), String(val).trim());
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * A render that replaces a form must not take the caret from someone typing in it (a list arriving
 * while a name is typed): the focused field, found again by its id, gets the focus and selection back.
 */
export function keepingFocus(draw) {
  return (...args) => {
    const before = document.activeElement;
    const id = before && before.id;
    const range = id && typeof before.selectionStart === "number" ? [before.selectionStart, before.selectionEnd] : null;
    draw(...args);
    if (!id || (before.isConnected && document.activeElement === before)) return;
    const again = document.getElementById(id);
    if (!again || again === document.activeElement) return;
    again.focus({ preventScroll: true });
    if (range && typeof again.setSelectionRange === "function") {
      try {
        again.setSelectionRange(range[0], range[1]);
      } catch {
        // a field kind without a caret (number, checkbox): the focus is enough
      }
    }
  };
}

/** An in-app link: the router intercepts clicks on a[data-link]. */
export function link(href, text, attrs = {}) {
  return el("a", { href, "data-link": "", ...attrs }, text);
}

let toastTimer = null;

/** A short message at the bottom of the screen (textContent only). */
export function toast(text, kind = "error") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    box.className = "toast";
  }, 4000);
}

/** A date from the server (ISO text or epoch seconds) in the user's locale. */
export function when(value, langCode) {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const tag = langCode === "pt" ? "pt-BR" : langCode === "es" ? "es-AR" : "en";
  return date.toLocaleString(tag, { dateStyle: "medium", timeStyle: "short" });
}
