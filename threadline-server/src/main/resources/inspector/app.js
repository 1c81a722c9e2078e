// The inspector's entry point: the page for each hash route (nav.js) and the top bar.
import { h, mount } from './dom.js';
import { apiKey, logout, whenUnauthorized } from './api.js';
import { loginPage } from './login.js';
import { sessionsPage } from './sessions.js';
import { sessionPage } from './session.js';
import { go, onNavigate, route } from './nav.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
let current = null; // the page shown: {dispose()} to stop its streams

function topNav() {
  if (!apiKey()) return mount(nav);
  mount(nav,
    h('a', { href: '#/sessions' }, 'Sessions'),
    h('a', { href: '/openapi.json', target: '_blank', rel: 'noopener' }, 'API'),
    h('button.link', { type: 'button', onclick: () => { logout(); go('login'); } }, 'Log out'));
}

async function show() {
  if (current?.dispose) current.dispose();
  current = null;
  const { parts, params } = route();
  topNav();
  if (!apiKey() && parts[0] !== 'login') {
    go('login', { next: location.hash.slice(1) }, { replace: true });
    return;
  }
  main.replaceChildren();
  main.dataset.page = parts[0] || 'sessions';
  try {
    if (parts[0] === 'login') current = loginPage(main, params);
    else if (parts[0] === 'session' && parts[1]) current = sessionPage(main, parts[1], params);
    else current = sessionsPage(main, params);
  } catch (e) {
    mount(main, h('p.error', String(e.message || e)));
  }
}

whenUnauthorized(() => {
  logout();
  if (route().parts[0] !== 'login') go('login', { next: location.hash.slice(1), expired: '1' }, { replace: true });
});
onNavigate(show);
window.addEventListener('hashchange', show);
show();
