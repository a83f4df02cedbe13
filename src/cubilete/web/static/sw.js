// The service worker: keeps the site's shell (the one page, its scripts, styles and icons) so the site
// installs on a phone's home screen and opens without a network. The server puts VERSION (a hash of the
// shell's files) and SHELL (their addresses) above this text, so a new release installs a new worker.
//
// Network first, always: pages and scripts are revalidated on each load (an upgrade never mixes old and
// new code), and the copy here is used only when the network is away. The API and the WebSockets are
// never touched: a game's state always comes from the server.

/* global VERSION, SHELL */
const CACHE = `cubilete-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("cubilete-shell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function isShell(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  if (request.mode === "navigate") return !url.pathname.startsWith("/api/");
  return url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest";
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && request.mode !== "navigate") cache.put(request, response.clone());
    return response;
  } catch (err) {
    // every page is the same shell, so any address opens offline
    const kept = await cache.match(request.mode === "navigate" ? "/" : request, { ignoreSearch: true });
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  if (isShell(event.request)) event.respondWith(networkFirst(event.request));
});
