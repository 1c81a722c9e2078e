// The session page's steering panels: calls awaiting a person (approve, deny, edit and approve,
// answer), the composer (a message with a double-texting strategy, streamed token by token) and the
// variables editor. Each action is one POST with its own Idempotency-Key.
import { h, mount, pretty, codeBlock, actionKey, notify } from './dom.js';
import { api, ApiError } from './api.js';

/**
 * The calls that wait for a person: GET /approvals (kind approval or question), falling back to the
 * state's pending calls on a server without that route.
 */
export async function awaiting(id, state) {
  if (!(state.pending || []).some(p => p.awaiting)) return [];
  try {
    const res = await api.approvals(id);
    return (res.items || []).map(a => ({ toolUseId: a.toolUseId, name: a.name, arguments: a.arguments,
      kind: a.kind === 'question' ? 'answer' : 'approval', question: a.question }));
  } catch (e) {
    if (!(e instanceof ApiError && (e.status === 404 || e.status === 405)) || e.type === 'session-not-found') throw e;
    return (state.pending || []).filter(p => p.awaiting).map(p => ({ toolUseId: p.toolUseId, name: p.name, arguments: p.input,
      kind: String(p.awaiting).toLowerCase() === 'answer' ? 'answer' : 'approval', question: p.input?.question }));
  }
}

/**
 * The onEvent of a streamed turn: `delta` events go to sink.onDelta(text, modelCall), the journalled
 * reply to sink.onMessage(), an `error` event to errorEl; the page's observer stream shows the rest.
 */
export function turnEvents(sink, errorEl) {
  return (evId, type, data) => {
    if (type === 'error') { errorEl.textContent = data?.detail || 'the turn failed'; return; }
    if (type === 'delta') sink.onDelta(data?.text ?? '', data?.modelCall ?? 1);
    else if (type === 'AssistantMessageReceived') sink.onMessage(); // the whole reply is journalled: the stream's deltas are done
  };
}

/**
 * Draws the cards of calls awaiting a person into el; after() runs when one was decided. A card that
 * is still waiting is kept as it is (with what the viewer typed in it); only new and gone calls change.
 */
export function renderAwaiting(el, id, calls, after, sink) {
  if (!calls.length) { mount(el); el.hidden = true; return; }
  el.hidden = false;
  const existing = new Map([...el.querySelectorAll('.await-card')].map(c => [c.dataset.toolUse, c]));
  mount(el, h('h2', calls.length === 1 ? 'Waiting for you' : `${calls.length} calls waiting for you`),
    calls.map(c => existing.get(c.toolUseId) || (c.kind === 'answer' ? answerCard(id, c, after, sink) : approvalCard(id, c, after, sink))));
}

function approvalCard(id, c, after, sink) {
  const error = h('p.error', { role: 'alert' });
  const reason = h('input', { name: 'reason', placeholder: 'why (optional)', 'aria-label': `Reason to deny ${c.name}`, autocomplete: 'off' });
  const args = h('textarea.json', { name: 'arguments', rows: 4, spellcheck: 'false', 'aria-label': `Arguments of ${c.name}` });
  args.value = pretty(c.arguments ?? {});
  const editor = h('div.edit-args', { hidden: true }, h('label', 'Edited arguments (JSON, checked against the tool\'s schema)'), args,
    h('div.actions', h('button.primary', { type: 'button', onclick: () => decide('approve', parseArgs()) }, 'Approve with these arguments')));
  const buttons = [];
  const decide = async (decision, edited) => {
    if (edited === undefined) return;
    error.textContent = '';
    buttons.forEach(b => { b.disabled = true; });
    const body = { decision };
    if (decision === 'deny' && reason.value.trim()) body.reason = reason.value.trim();
    if (decision === 'deny' && !body.reason) body.reason = 'denied in the inspector';
    if (edited) body.arguments = edited;
    try {
      notify(decision === 'approve' ? `Approved ${c.name}; the turn goes on.` : `Denied ${c.name}; the turn goes on.`);
      await api.decideStreaming(id, c.toolUseId, body, actionKey(), turnEvents(sink, error));
      after();
    } catch (e) {
      error.textContent = e.message + (e.field ? ` (${e.field})` : '');
      buttons.forEach(b => { b.disabled = false; });
    } finally {
      sink.onDone();
    }
  };
  const parseArgs = () => {
    try { return JSON.parse(args.value); } catch (e) { error.textContent = 'The arguments are not JSON: ' + e.message; args.focus(); return undefined; }
  };
  const approve = h('button.primary', { type: 'button', onclick: () => decide('approve', null) }, 'Approve');
  const deny = h('button.danger', { type: 'button', onclick: () => decide('deny', null) }, 'Deny');
  const edit = h('button', { type: 'button', 'aria-expanded': 'false', onclick: () => {
    editor.hidden = !editor.hidden;
    edit.setAttribute('aria-expanded', String(!editor.hidden));
    if (!editor.hidden) args.focus();
  } }, 'Edit arguments…');
  buttons.push(approve, deny, edit);
  return h('section.await-card', { 'aria-label': `Approval for ${c.name}`, dataset: { toolUse: c.toolUseId } },
    h('p', h('strong', c.name), ' wants to run with:', c.effect ? h('span.tag.effect-' + c.effect, c.effect) : null),
    codeBlock(c.arguments ?? {}, 1200),
    h('div.actions', approve, edit, deny, reason),
    editor, error);
}

function answerCard(id, c, after, sink) {
  const error = h('p.error', { role: 'alert' });
  const text = h('textarea', { name: 'answer', rows: 2, 'aria-label': 'Your answer' });
  const send = h('button.primary', { type: 'submit' }, 'Answer');
  return h('section.await-card.question', { 'aria-label': 'A question for you', dataset: { toolUse: c.toolUseId } },
    h('p', h('strong', 'The model asks: '), c.question ?? c.arguments?.question ?? ''),
    h('form', { onsubmit: async ev => {
      ev.preventDefault();
      if (!text.value.trim()) { error.textContent = 'Type an answer.'; text.focus(); return; }
      send.disabled = true;
      try {
        notify('Answered; the turn goes on.');
        await api.answerStreaming(id, c.toolUseId, text.value, actionKey(), turnEvents(sink, error));
        after();
      } catch (e) {
        error.textContent = e.message + (e.field ? ` (${e.field})` : '');
        send.disabled = false;
      } finally {
        sink.onDone();
      }
    } }, text, h('div.actions', send)), error);
}

export const STRATEGIES = [
  ['', 'session default'],
  ['enqueue', 'enqueue — wait for the running turn'],
  ['reject', 'reject — refuse while a turn runs'],
  ['interrupt', 'interrupt — end the running turn first'],
  ['rollback', 'rollback — discard the running turn'],
];

/**
 * The composer: a message and the double-texting strategy to meet a running turn with. The turn
 * streams: its token deltas go to sink.onDelta, and sink.onDone() runs when the stream ends.
 */
export function composer(id, sink) {
  const text = h('textarea#composer-text', { name: 'text', rows: 3, placeholder: 'Message (Ctrl+Enter sends)', required: true });
  const strategy = h('select#composer-strategy', { name: 'strategy' }, STRATEGIES.map(([v, l]) => h('option', { value: v }, l)));
  const send = h('button.primary', { type: 'submit' }, 'Send');
  const error = h('p.error', { role: 'alert' });
  const form = h('form.composer', { onsubmit: async ev => {
    ev.preventDefault();
    const message = text.value;
    if (!message.trim()) { error.textContent = 'Type a message.'; text.focus(); return; }
    error.textContent = '';
    const body = { text: message };
    if (strategy.value) body.strategy = strategy.value;
    text.value = '';
    // a second message while a turn runs is what the strategy is for: the button stays usable
    try {
      await api.send(id, body, actionKey(), turnEvents(sink, error));
    } catch (e) {
      if (!text.value) text.value = message; // nothing was accepted: keep what was typed
      error.textContent = e.message + (e.field ? ` (${e.field})` : '');
    } finally {
      sink.onDone();
    }
  } },
    h('label.sr', { for: 'composer-text' }, 'Message'), text,
    h('div.composer-row',
      h('label', { for: 'composer-strategy' }, 'If a turn is running'), strategy, send),
    error);
  text.addEventListener('keydown', ev => { if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); form.requestSubmit(); } });
  return form;
}

const SCOPES = ['session', 'user', 'app'];

/**
 * The variables editor: set (a JSON value) or remove a variable, each one recorded edit with a
 * reason. Returns {update(state)}, which redraws the table of variables and keeps the form as typed.
 */
export function variablesPanel(el, id, after) {
  const error = h('p.error', { role: 'alert' });
  const name = h('input#var-name', { name: 'name', required: true, autocomplete: 'off', placeholder: 'name' });
  const scope = h('select#var-scope', { name: 'scope' }, SCOPES.map(s => h('option', { value: s }, s)));
  const value = h('textarea#var-value.json', { name: 'value', rows: 3, spellcheck: 'false', placeholder: '"a JSON value", 42, [1, 2], {"k": "v"}' });
  const reason = h('input#var-reason', { name: 'reason', autocomplete: 'off', placeholder: 'why (recorded with the edit)' });
  const table = h('div.vars-now');
  const submit = async edits => {
    error.textContent = '';
    try {
      await api.edit(id, { author: 'inspector', reason: reason.value.trim() || 'edited in the inspector', edits }, actionKey());
      notify('Edit recorded.');
      after();
    } catch (e) {
      error.textContent = e.message + (e.field ? ` (${e.field})` : '');
    }
  };
  const split = key => {
    const m = /^(user|app|temp):(.*)$/.exec(key);
    return m ? { scope: m[1], name: m[2] } : { scope: 'session', name: key };
  };
  mount(el, table,
    h('form.var-form', { onsubmit: ev => {
      ev.preventDefault();
      let parsed;
      try { parsed = JSON.parse(value.value); } catch (e) { error.textContent = 'The value is not JSON: ' + e.message; value.focus(); return; }
      submit([{ kind: 'set_variable', scope: scope.value, name: name.value.trim(), value: parsed }]);
    } },
      h('h3', 'Set a variable'),
      h('div.field-row', h('div.field', h('label', { for: 'var-name' }, 'Name'), name),
        h('div.field', h('label', { for: 'var-scope' }, 'Scope'), scope)),
      h('div.field', h('label', { for: 'var-value' }, 'Value (JSON)'), value),
      h('div.field', h('label', { for: 'var-reason' }, 'Reason'), reason),
      h('div.actions', h('button.primary', { type: 'submit' }, 'Record the edit'))),
    error);
  return {
    update(state) {
      const vars = Object.entries(state.variables || {}).sort(([a], [b]) => a.localeCompare(b));
      mount(table, vars.length ? h('table.vars', h('caption', 'Variables now (session scope)'),
        h('thead', h('tr', h('th', { scope: 'col' }, 'name'), h('th', { scope: 'col' }, 'value'), h('th', { scope: 'col' }, h('span.sr', 'actions')))),
        h('tbody', vars.map(([k, v]) => h('tr', { dataset: { var: k } }, h('th', { scope: 'row' }, k), h('td', codeBlock(v, 400)),
          h('td.row-actions',
            h('button.link', { type: 'button', 'aria-label': `edit ${k}`, onclick: () => {
              const s = split(k);
              name.value = s.name; scope.value = s.scope; value.value = pretty(v); value.focus();
            } }, 'edit'),
            h('button.link.danger', { type: 'button', 'aria-label': `remove ${k}`, onclick: () => {
              const s = split(k);
              submit([{ kind: 'remove_variable', scope: s.scope, name: s.name }]);
            } }, 'remove')))))) : h('p.muted', 'No variables yet.'));
    },
  };
}
