// One checkpoint: the state then, its diff against the previous checkpoint (or any other seq), and
// fork / rewind from it, with the acknowledgement of side effects a branch cannot undo.
import { h, mount, time, num, pretty, codeBlock, messagePreview, badge, actionKey, notify } from './dom.js';
import { api, ApiError } from './api.js';
import { diffStates, isEmptyDiff } from './diff.js';
import { go } from './nav.js';

/**
 * Draws checkpoint `cp` into `el`, diffed against `prev` (null: the empty state before the session).
 * `viewState(state)` shows a state's transcript in the main pane.
 */
export async function showCheckpoint(el, sessionId, cp, prev, viewState, signal, effectsAfter = () => []) {
  const compareIn = h('input#cmp-seq', { type: 'number', min: '0', step: '1', value: prev ? prev.seq : 0, inputmode: 'numeric',
    'aria-describedby': 'cmp-help' });
  const diffBox = h('div.diff', { 'aria-live': 'polite' }, h('p.muted', 'Loading…'));
  const stateBox = h('div.state-then');
  const forkId = h('input#fork-id', { name: 'forkId', placeholder: 'new id (optional)', autocomplete: 'off' });
  mount(el,
    h('div.cp-title', h('h2', `Checkpoint seq ${cp.seq}`),
      h('span.cp-meta', h('span.src.src-' + cp.source, cp.source), ` step ${cp.step} · `, h('time', { datetime: cp.time }, time(cp.time)))),
    h('p.cp-preview-full', cp.preview),
    h('div.undone-slot', { dataset: { seq: cp.seq } }, undone(effectsAfter(cp.seq))),
    h('div.actions',
      h('label.sr', { for: 'fork-id' }, 'Id of the fork'), forkId,
      h('button', { type: 'button', onclick: () => branch('fork', sessionId, cp.seq, forkId.value.trim()) }, 'Fork here'),
      h('button', { type: 'button', onclick: () => branch('rewind', sessionId, cp.seq) }, 'Rewind here')),
    h('div.diff-head', h('h3', 'What changed'),
      h('form.compare', { onsubmit: ev => { ev.preventDefault(); compare(Number(compareIn.value)); } },
        h('label', { for: 'cmp-seq' }, 'since seq'), compareIn,
        h('button', { type: 'submit' }, 'Diff'))),
    h('p.muted.small#cmp-help', prev ? `The previous checkpoint is seq ${prev.seq}; 0 is the empty state.` : '0 is the empty state.'),
    diffBox,
    h('h3', 'State then'), stateBox);

  let current;
  try {
    current = await api.stateAt(sessionId, cp.seq, signal);
  } catch (e) {
    if (e.name !== 'AbortError') mount(diffBox, h('p.error', e.message));
    return;
  }
  renderState(stateBox, current, viewState);
  await compare(prev ? prev.seq : 0);
  revealDiff(el, el.querySelector('.diff-head'), diffBox);

  async function compare(seq) {
    if (!Number.isInteger(seq) || seq < 0) { mount(diffBox, h('p.error', 'A seq is a whole number, 0 or more.')); return; }
    mount(diffBox, h('p.muted', 'Loading…'));
    try {
      const before = seq === 0 ? null : await api.stateAt(sessionId, seq, signal);
      const d = seq <= cp.seq ? diffStates(before, current) : diffStates(current, before);
      mount(diffBox, renderDiff(d));
    } catch (e) {
      if (e.name !== 'AbortError') mount(diffBox, h('p.error', e.message + (e.field ? ` (${e.field})` : '')));
    }
  }
}

/**
 * Scrolls the checkpoint's pane (when it scrolls) so that the diff's start shows: the pane moves down as
 * far as the diff needs, never past the diff's heading, and moves nothing when the diff is in view.
 */
function revealDiff(pane, head, diffBox) {
  if (!pane.isConnected || pane.scrollHeight <= pane.clientHeight) return;
  const box = pane.getBoundingClientRect();
  const top = head.getBoundingClientRect().top - box.top; // from the pane's visible top
  const end = diffBox.getBoundingClientRect().bottom - box.top;
  const over = Math.min(end, top + pane.clientHeight) - pane.clientHeight;
  if (over > 0) pane.scrollTop += Math.min(over, top);
}

/** Redraws the side-effect warning of the checkpoint shown in el (the journal's calls arrived or grew). */
export function updateUndone(el, effectsAfter) {
  const slot = el.querySelector('.undone-slot');
  if (slot) mount(slot, undone(effectsAfter(Number(slot.dataset.seq))));
}

/** The warning that a branch here leaves side effects done (the server asks to acknowledge them too). */
function undone(effects) {
  if (!effects.length) return null;
  return h('p.notice.undone', `⚠ A fork or rewind here cannot undo ${effects.length} side effect${effects.length === 1 ? '' : 's'} made after it: `,
    effects.map(e => `${e.name} (${e.toolUseId}) at seq ${e.startSeq}`).join(', '), '.');
}

function renderState(el, s, viewState) {
  const vars = Object.entries(s.variables || {});
  mount(el,
    h('dl.facts',
      h('dt', 'Status'), h('dd', badge(s.status)),
      h('dt', 'Messages'), h('dd', num(s.messages.length), s.contextStart ? ` (context from #${s.contextStart})` : ''),
      h('dt', 'Tokens so far'), h('dd', `${num(s.usage?.inputTokens)} in · ${num(s.usage?.outputTokens)} out`),
      s.compaction ? [h('dt', 'Compaction'), h('dd', `summary before #${s.compaction.boundary}`)] : null,
      s.permissionDenials ? [h('dt', 'Denials'), h('dd', num(s.permissionDenials))] : null,
      s.pending?.length ? [h('dt', 'Pending calls'), h('dd', s.pending.map(p => h('div', `${p.name} (${p.toolUseId})`,
        p.awaiting ? ` — awaiting ${p.awaiting.toLowerCase()}` : '')))] : null),
    vars.length ? h('table.vars', h('caption', 'Variables'), h('tbody', vars.map(([k, v]) => h('tr', h('th', { scope: 'row' }, k),
      h('td', codeBlock(v, 400)))))) : h('p.muted', 'No variables.'),
    h('button', { type: 'button', onclick: () => viewState(s) }, `Show the transcript as of seq ${s.seq}`));
}

/** The diff as lists: messages added/removed, variables, status, pending, tokens, context. */
export function renderDiff(d) {
  if (isEmptyDiff(d)) return h('p.muted', `No change from seq ${d.fromSeq} to seq ${d.toSeq}.`);
  const items = [];
  if (d.status) items.push(h('li', 'Status: ', badge(d.status.from), ' → ', badge(d.status.to)));
  if (d.tokens) items.push(h('li', `Tokens: ${d.tokens > 0 ? '+' : ''}${num(d.tokens)}`));
  if (d.contextStart) items.push(h('li', `Context start: #${d.contextStart.from} → #${d.contextStart.to} (cleared)`));
  if (d.compaction) items.push(h('li', d.compaction.to ? `Compacted: summary now replaces messages before #${d.compaction.to.boundary}`
    : 'Compaction removed'));
  if (d.permissionDenials) items.push(h('li', `Permission denials: +${d.permissionDenials}`));
  if (d.pending) items.push(h('li', `Pending calls: ${d.pending.from.length} → ${d.pending.to.length}`,
    d.pending.to.length ? h('ul', d.pending.to.map(p => h('li', `${p.name} (${p.toolUseId})${p.awaiting ? ', awaiting ' + p.awaiting.toLowerCase() : ''}`
      + (p.result ? ', answered' : '')))) : null));
  const v = d.variables;
  const varRows = [
    ...v.added.map(x => h('tr.added', h('td', '+'), h('th', { scope: 'row' }, x.name), h('td'), h('td', codeBlock(x.value, 300)))),
    ...v.changed.map(x => h('tr.changed', h('td', '~'), h('th', { scope: 'row' }, x.name), h('td', codeBlock(x.from, 300)),
      h('td', codeBlock(x.to, 300)))),
    ...v.removed.map(x => h('tr.removed', h('td', '−'), h('th', { scope: 'row' }, x.name), h('td', codeBlock(x.value, 300)), h('td'))),
  ];
  const shown = 50;
  const msgList = (list, cls, sign) => h('ol.diff-msgs.' + cls, list.slice(0, shown).map(({ index, message }) =>
    h('li', h('span.diff-sign', { 'aria-hidden': 'true' }, sign), h('span.role', message.role), h('span.idx', '#' + index), ' ',
      messagePreview(message))),
    list.length > shown ? h('li.muted', `… and ${num(list.length - shown)} more`) : null);
  return h('div',
    h('p.diff-summary', `From seq ${d.fromSeq} to seq ${d.toSeq}: `,
      h('strong.added-count', `${num(d.messagesAdded.length)} message${d.messagesAdded.length === 1 ? '' : 's'} added`),
      d.messagesRemoved.length ? `, ${num(d.messagesRemoved.length)} removed` : '',
      `, ${v.added.length + v.changed.length + v.removed.length} variable${v.added.length + v.changed.length + v.removed.length === 1 ? '' : 's'} changed.`),
    items.length ? h('ul.diff-items', items) : null,
    d.messagesAdded.length ? msgList(d.messagesAdded, 'added', '+') : null,
    d.messagesRemoved.length ? msgList(d.messagesRemoved, 'removed', '−') : null,
    varRows.length ? h('table.vars.diff-vars', h('caption', 'Variables'),
      h('thead', h('tr', h('th', { scope: 'col' }, h('span.sr', 'change')), h('th', { scope: 'col' }, 'name'),
        h('th', { scope: 'col' }, 'before'), h('th', { scope: 'col' }, 'after'))), h('tbody', varRows)) : null);
}

/** The effects an "undone effects" problem lists (its own field when sent, else parsed off its detail). */
export function effectsOf(problem) {
  if (Array.isArray(problem.effects)) return problem.effects.map(e => typeof e === 'string' ? e : pretty(e));
  const m = /side effect\(s\): (.*?)\. Acknowledge/.exec(problem.detail || '');
  return m ? m[1].split('; ') : [problem.detail || 'side effects'];
}

function isUndoneEffects(e) {
  return e instanceof ApiError && (/effect/.test(e.type) || /side effect/.test(e.problem.detail || ''));
}

/** Fork or rewind at seq; when side effects come after it, asks for the acknowledgement first. */
export async function branch(kind, sessionId, seq, newId, acknowledge = false, key = actionKey()) {
  const body = { seq };
  if (kind === 'fork' && newId) body.id = newId;
  if (acknowledge) body.acknowledgeEffects = true;
  try {
    const made = await (kind === 'fork' ? api.fork(sessionId, body, key) : api.rewind(sessionId, body, key));
    notify(`${kind === 'fork' ? 'Forked' : 'Rewound'}: new branch ${made.id} from seq ${seq}.`);
    go('session/' + encodeURIComponent(made.id));
    return made;
  } catch (e) {
    if (!acknowledge && isUndoneEffects(e)) {
      if (await confirmEffects(kind, seq, effectsOf(e.problem))) return branch(kind, sessionId, seq, newId, true);
      return null;
    }
    notify(`${kind} failed: ${e.message}`, 'error');
    return null;
  }
}

/** A modal that lists the effects a branch cannot undo; resolves true when the viewer acknowledges them. */
function confirmEffects(kind, seq, effects) {
  return new Promise(resolve => {
    const ack = h('input#ack-effects', { type: 'checkbox' });
    const ok = h('button.danger', { type: 'submit', disabled: true }, `${kind === 'fork' ? 'Fork' : 'Rewind'} anyway`);
    ack.addEventListener('change', () => { ok.disabled = !ack.checked; });
    const dlg = h('dialog.confirm', { 'aria-labelledby': 'ack-title' },
      h('form', { method: 'dialog', onsubmit: ev => { ev.preventDefault(); dlg.close(ack.checked ? 'yes' : 'no'); } },
        h('h2#ack-title', 'These side effects cannot be undone'),
        h('p', `A ${kind} to seq ${seq} starts from before these calls, but what they did outside stays done:`),
        h('ul.effects', effects.map(e => h('li', e))),
        h('p', h('label.check', ack, ' I understand that these effects stay')),
        h('div.actions', ok, h('button', { type: 'button', onclick: () => dlg.close('no') }, 'Cancel'))));
    dlg.addEventListener('close', () => { dlg.remove(); resolve(dlg.returnValue === 'yes'); });
    document.body.append(dlg);
    dlg.showModal();
    ack.focus();
  });
}
