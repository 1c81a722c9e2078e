// Hash routes (#/login, #/sessions, #/session/ID): where the inspector is, and going elsewhere.
// Apart from app.js, which draws the pages, so that pages can navigate without importing the app.

let render = () => {}; // app.js's page drawing, set once at start

/** Sets what draws the page for the current hash (app.js, once). */
export function onNavigate(fn) {
  render = fn;
}

/** Parses location.hash: #/path?query into {parts, params}. */
export function route() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [path, q = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(q) };
}

/** Goes to #/path (with optional query params), adding a history entry unless replace. */
export function go(path, params, { replace = false } = {}) {
  const q = params && [...new URLSearchParams(params)].length ? '?' + new URLSearchParams(params) : '';
  const hash = '#/' + path + q;
  if (replace) history.replaceState(null, '', hash); else if (location.hash !== hash) { location.hash = hash; return; }
  render();
}
