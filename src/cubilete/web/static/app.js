// The router: one shell page for every path; the header (links and language) and the page below it.

import { el, link } from "./api.js";
import { mountGames, mountLeaderboard, mountPlayer } from "./history.js";
import { mountDaily, mountStandings } from "./daily.js";
import { mountTournament, mountTournaments } from "./tournament.js";
import { mountSheet, mountSheetNew } from "./realdice.js";
import { mountClub, mountClubs } from "./club.js";
import { mount as mountHome } from "./home.js";
import { mount as mountLobby } from "./lobby.js";
import { LANG_NAMES, LANGS, lang, onLangChange, setLang, t } from "./i18n.js";
import { navigate } from "./nav.js";
import { registerServiceWorker } from "./pwa.js";
import { mount as mountReplay } from "./replay.js";
import { mount as mountTable } from "./table.js";

const ROUTES = [
  [/^\/$/, () => mountHome],
  [/^\/t\/([^/]+)\/?$/, (m) => (root) => mountTable(root, { id: decodeURIComponent(m[1]) })],
  [/^\/lobby\/?$/, () => mountLobby],
  [/^\/daily\/?$/, () => mountDaily],
  [/^\/daily\/([^/]+)\/([^/]+)\/?$/, (m) => (root) => mountStandings(root, { day: decodeURIComponent(m[1]), preset: decodeURIComponent(m[2]) })],
  [/^\/tournaments\/?$/, () => mountTournaments],
  [/^\/tournaments\/([^/]+)\/?$/, (m) => (root) => mountTournament(root, { id: decodeURIComponent(m[1]) })],
  [/^\/sheet\/?$/, () => mountSheetNew],
  [/^\/sheet\/([^/]+)\/?$/, (m) => (root) => mountSheet(root, { id: decodeURIComponent(m[1]) })],
  [/^\/clubs\/?$/, () => mountClubs],
  [/^\/clubs\/([^/]+)\/?$/, (m) => (root) => mountClub(root, { id: decodeURIComponent(m[1]) })],
  [/^\/games\/?$/, () => mountGames],
  [/^\/leaderboard\/?$/, () => mountLeaderboard],
  [/^\/p\/([^/]+)\/?$/, (m) => (root) => mountPlayer(root, { pid: decodeURIComponent(m[1]) })],
  [/^\/replay\/([^/]+)\/?$/, (m) => (root) => mountReplay(root, { id: decodeURIComponent(m[1]) })],
];

const header = document.getElementById("site-header");
const main = document.getElementById("app");
let page = null;
let pagePath = null;

function notFound(root) {
  root.replaceChildren(
    el(
      "section",
      { class: "card" },
      el("h1", {}, t("common.notfound")),
      link("/", t("nav.new"), { class: "btn primary" }),
    ),
  );
  return { rerender: () => notFound(root), destroy() {} };
}

function renderHeader() {
  const here = location.pathname;
  const nav = (href, key) =>
    link(href, t(key), {
      class: here === href ? "nav-link on" : "nav-link",
      "aria-current": here === href ? "page" : null,
    });
  const select = el(
    "select",
    { "data-testid": "lang", "aria-label": t("nav.lang"), onchange: (ev) => setLang(ev.target.value) },
    LANGS.map((code) => el("option", { value: code, selected: code === lang() }, LANG_NAMES[code])),
  );
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = t("app.skip"); // the page's language, never a fixed English text
  header.replaceChildren(
    el(
      "div",
      { class: "header-inner" },
      link(
        "/",
        [
          el("span", { class: "brand-mark", "aria-hidden": "true" }, "⚄"),
          el("span", { class: "brand-name" }, t("app.title")),
        ],
        { class: "brand", "data-testid": "home-link" },
      ),
      el(
        "nav",
        { class: "main-nav", "aria-label": t("nav.main") },
        nav("/", "nav.new"),
        nav("/lobby", "nav.lobby"),
        nav("/daily", "nav.daily"),
        nav("/tournaments", "nav.tournaments"),
        nav("/games", "nav.games"),
        nav("/leaderboard", "nav.leaderboard"),
      ),
      el("label", { class: "lang-pick" }, el("span", { class: "sr-only" }, t("nav.lang")), select),
    ),
  );
  const navBox = header.querySelector(".main-nav");
  showCurrent(navBox);
  navBox.addEventListener("scroll", () => markMore(navBox), { passive: true });
  markMore(navBox);
}

// On a phone the links scroll sideways in one row: the edge that hides more links fades out (more-left,
// more-right), and the page one is on is scrolled into the row.
function markMore(navBox) {
  const hidden = navBox.scrollWidth - navBox.clientWidth;
  navBox.classList.toggle("more-right", hidden > 1 && navBox.scrollLeft < hidden - 1);
  navBox.classList.toggle("more-left", hidden > 1 && navBox.scrollLeft > 1);
}

function showCurrent(navBox) {
  const on = navBox.querySelector(".nav-link.on");
  if (!on) return;
  const box = navBox.getBoundingClientRect();
  const link = on.getBoundingClientRect();
  if (link.right > box.right) navBox.scrollLeft += link.right - box.right + 24; // past the faded edge
}

window.addEventListener("resize", () => {
  const navBox = header.querySelector(".main-nav");
  if (navBox) markMore(navBox);
});

function route() {
  // the same path again (a query change) re-mounts; a hash-only change does nothing
  const path = location.pathname + location.search;
  if (path === pagePath && page) return;
  pagePath = path;
  if (page) page.destroy();
  window.scrollTo(0, 0);
  renderHeader();
  let mount = notFound;
  for (const [re, make] of ROUTES) {
    const m = location.pathname.match(re);
    if (m) {
      mount = make(m);
      break;
    }
  }
  page = mount(main) || { rerender() {}, destroy() {} };
}

document.addEventListener("click", (ev) => {
  const a = ev.target instanceof Element ? ev.target.closest("a[data-link]") : null;
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("popstate", route);
window.addEventListener("cubilete:navigate", route);
onLangChange(() => {
  renderHeader();
  if (page) page.rerender();
});

route();
registerServiceWorker(); // after the first page: installing never delays it
