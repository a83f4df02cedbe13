// In-app navigation without a page load; app.js listens for "cubilete:navigate".

/** Go to path inside the app (history entry + route). */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  window.dispatchEvent(new Event("cubilete:navigate"));
}
