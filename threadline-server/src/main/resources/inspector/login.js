// Login: the API key is checked with one request and kept in sessionStorage for this tab only.
import { h, mount } from './dom.js';
import { api, setApiKey } from './api.js';
import { go } from './nav.js';

export function loginPage(main, params) {
  const input = h('input#key', { type: 'password', name: 'key', autocomplete: 'off', spellcheck: 'false', required: true,
    placeholder: 'tl_…', 'aria-describedby': 'key-help' });
  const error = h('p.error#login-error', { role: 'alert' });
  const button = h('button.primary', { type: 'submit' }, 'Log in');
  const form = h('form.login', { onsubmit: async ev => {
    ev.preventDefault();
    const key = input.value.trim();
    error.textContent = '';
    if (!key) { error.textContent = 'Type an API key.'; return; }
    button.disabled = true;
    try {
      await api.check(key);
      setApiKey(key);
      const next = params.get('next');
      if (next && next.startsWith('/') && !next.startsWith('/login')) location.hash = '#' + next; else go('sessions');
    } catch (e) {
      error.textContent = e.status === 401 ? 'That key was not accepted (unknown or revoked).' : e.message;
      input.select();
    } finally {
      button.disabled = false;
    }
  } },
    h('h1', 'Log in'),
    params.get('expired') ? h('p.notice', 'The key was refused; log in again.') : null,
    h('label', { for: 'key' }, 'API key'),
    input,
    h('p.muted#key-help', 'A key of your tenant (threadline keys create --tenant T). It stays in this browser tab only ',
      '(session storage) and is sent as Authorization: Bearer with every request; the inspector sees what the key may see.'),
    error,
    button);
  mount(main, form);
  input.focus();
  return {};
}
