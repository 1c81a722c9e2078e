// The sessions list: filters (user, metadata), cursor paging, status badges, branches under parents.
import { h, mount, ago, badge, num, cut } from './dom.js';
import { api } from './api.js';
import { statusFromTail } from './diff.js';
import { parseMetadata, treeOrder } from './lists.js';
import { go } from './nav.js';

const PAGE = 50;

/** A session's status: the list's own field when the server sends one, else read off its journal's tail. */
export async function sessionStatus(s, signal) {
  if (s.status) return s.status;
  const lines = [];
  await api.events(s.id, Math.max(0, (s.headSeq || 0) - 12), (id, type, data) => { if (data?.event) lines.push(data); },
    { signal });
  return statusFromTail(lines);
}

export function sessionsPage(main, params) {
  const abort = new AbortController();
  const user = params.get('user') || '';
  const meta = params.get('meta') || '';
  const cursor = params.get('cursor') || '';
  const back = (params.get('back') || '').split('~').filter(Boolean);

  const userIn = h('input#f-user', { name: 'user', value: user, placeholder: 'any user', autocomplete: 'off' });
  const metaIn = h('input#f-meta', { name: 'meta', value: meta, placeholder: 'topic=demo, team=a', autocomplete: 'off' });
  const findIn = h('input#f-find', { type: 'search', name: 'find', placeholder: 'filter this page by id, or open an id',
    autocomplete: 'off' });
  const error = h('p.error', { role: 'alert' });
  const table = h('tbody');
  const pager = h('div.pager');
  const summary = h('p.muted');

  const filters = h('form.filters', { role: 'search', onsubmit: ev => {
    ev.preventDefault();
    try { parseMetadata(metaIn.value); } catch (e) { error.textContent = e.message; metaIn.focus(); return; }
    go('sessions', clean({ user: userIn.value.trim(), meta: metaIn.value.trim() }));
  } },
    h('div.field', h('label', { for: 'f-user' }, 'User'), userIn),
    h('div.field.grow', h('label', { for: 'f-meta' }, 'Metadata (KEY=VALUE, every pair must match)'), metaIn),
    h('button.primary', { type: 'submit' }, 'Filter'),
    h('button', { type: 'button', onclick: () => go('sessions') }, 'Clear'));

  const find = h('form.find', { onsubmit: ev => {
    ev.preventDefault();
    const id = findIn.value.trim();
    if (id) go('session/' + encodeURIComponent(id));
  } }, h('label.sr', { for: 'f-find' }, 'Find a session'), findIn, h('button', { type: 'submit' }, 'Open'));
  findIn.addEventListener('input', () => {
    const q = findIn.value.trim().toLowerCase();
    for (const tr of table.children) tr.hidden = q && !tr.dataset.id.toLowerCase().includes(q);
  });

  mount(main,
    h('div.page-head', h('h1', 'Sessions'), find),
    filters, error, summary,
    h('div.table-wrap', h('table.sessions', h('caption.sr', 'Sessions of this tenant, most recently updated first'),
      h('thead', h('tr', ['Session', 'Status', 'User', 'Metadata', 'Seq', 'Updated'].map(t => h('th', { scope: 'col' }, t)))),
      table)),
    pager);

  (async () => {
    let page;
    try {
      page = await api.sessions({ user: user || undefined, metadata: parseMetadata(meta), limit: PAGE, cursor: cursor || undefined });
    } catch (e) {
      error.textContent = e.message + (e.field ? ` (${e.field})` : '');
      return;
    }
    const rows = treeOrder(page.items);
    summary.textContent = page.items.length
      ? `${page.items.length} session${page.items.length === 1 ? '' : 's'} on this page${page.nextCursor ? ', more on the next' : ''}.`
      : 'No sessions match.';
    mount(table, rows.map(({ s, depth }) => row(s, depth)));
    const prev = back.length ? back[back.length - 1] : null;
    mount(pager,
      cursor ? h('button', { type: 'button', onclick: () => go('sessions', clean({ user, meta, cursor: prev === '-' ? '' : prev,
        back: back.slice(0, -1).join('~') })) }, '← Previous page') : null,
      page.nextCursor ? h('button', { type: 'button', onclick: () => go('sessions', clean({ user, meta, cursor: page.nextCursor,
        back: [...back, cursor || '-'].join('~') })) }, 'Next page →') : null);
    // badges: a few at a time, so a page of sessions does not open fifty streams at once
    const queue = [...page.items];
    const work = async () => {
      for (let s; (s = queue.shift());) {
        const cell = table.querySelector(`tr[data-id="${CSS.escape(s.id)}"] .status`);
        try { mount(cell, badge(await sessionStatus(s, abort.signal))); } catch (e) { if (e.name !== 'AbortError') mount(cell, badge('unknown')); }
      }
    };
    await Promise.all([work(), work(), work(), work()]);
  })();
  return { dispose: () => abort.abort() };
}

function row(s, depth) {
  const meta = Object.entries(s.metadata || {});
  return h('tr', { dataset: { id: s.id, depth }, class: depth ? 'branch-row' : null },
    h('td', h('div.sid', { style: { paddingLeft: depth * 1.25 + 'rem' } },
      depth ? h('span.tree', { 'aria-hidden': 'true' }, '↳ ') : null,
      h('a', { href: '#/session/' + encodeURIComponent(s.id) }, s.id),
      s.parentId ? h('span.muted.small', ` branch of ${s.parentId} at seq ${s.parentSeq}`) : null)),
    h('td.status', h('span.badge.badge-unknown', '…')),
    h('td', s.userId || ''),
    h('td', meta.length ? meta.map(([k, v]) => h('span.chip', { title: `${k}=${v}` }, cut(`${k}=${v}`, 40))) : h('span.muted', '—')),
    h('td.num', num(s.headSeq)),
    h('td', { title: s.updatedAt }, ago(s.updatedAt)));
}

function clean(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v));
}
