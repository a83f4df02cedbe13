// Installable: the page registers the service worker (sw.js) that keeps the site's shell for a home-screen
// icon and an offline start. A browser without service workers (or a private window refusing them) plays
// the same, only without the offline shell.

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
