// The timeline: every checkpoint with its source, time, tokens and side effects, newest first, in
// pages (the API pages oldest first by seq cursor; older pages are found by stepping the cursor back).
import { h, mount, shortTime, num, cut } from './dom.js';
import { api } from './api.js';
import { checkpointFacts } from './diff.js';

export const PAGE = 50;

/** The checkpoints with seq after `after` (up to `limit`), and whether more follow. */
async function after(id, afterSeq, limit, signal) {
  const p = await api.checkpoints(id, afterSeq || undefined, limit, signal);
  return { items: p.items, more: p.nextCursor !== null && p.nextCursor !== undefined };
}

/**
 * The `want` checkpoints just before seq `before`, with the one before them (prev, for diffs), found
 * by reading forward from a cursor stepped back from `before`, further each time it found too few.
 */
export async function pageBefore(id, before, want = PAGE, signal, span = want * 2 + 2) {
  for (;;) {
    const from = Math.max(0, before - 1 - span);
    const items = [];
    let cursor = from;
    for (;;) {
      const p = await api.checkpoints(id, cursor || undefined, 1000, signal);
      for (const c of p.items) if (c.seq < before) items.push(c);
      const last = p.items[p.items.length - 1];
      if (!p.nextCursor || !last || last.seq >= before - 1) break;
      cursor = Number(p.nextCursor);
    }
    if (items.length > want || from === 0) {
      const page = items.slice(-want);
      const prev = items.length > want ? items[items.length - want - 1] : null;
      return { items: page, prevSeq: prev ? prev.seq : 0, hasOlder: !!prev };
    }
    span *= 4;
  }
}

export class Timeline {
  /**
   * @param el       the element to draw in
   * @param id       the session
   * @param onSelect (checkpoint, previous checkpoint or null) when one is chosen
   */
  constructor(el, id, onSelect) {
    this.el = el;
    this.id = id;
    this.onSelect = onSelect;
    this.page = null;
    this.selected = null;
    this.facts = new Map();
    this.abort = new AbortController();
  }

  dispose() { this.abort.abort(); }

  /** Shows the newest page (head = the session's current seq). */
  async newest(head) {
    this.head = head;
    this.show(await pageBefore(this.id, head + 1, PAGE, this.abort.signal), false);
  }

  /** Shows the page that ends at checkpoint seq (or the one just before it) and selects it. */
  async at(seq, head) {
    this.head = head;
    this.show(await pageBefore(this.id, seq + 1, PAGE, this.abort.signal), false);
    const found = this.page.items.findLast(c => c.seq <= seq);
    if (found) this.select(found.seq, false);
  }

  async older() {
    const first = this.page.items[0];
    this.show(await pageBefore(this.id, first.seq, PAGE, this.abort.signal), true);
  }

  async newer() {
    const last = this.page.items[this.page.items.length - 1];
    const { items, more } = await after(this.id, last.seq, PAGE, this.abort.signal);
    this.show({ items, prevSeq: last.seq, hasOlder: true, hasNewer: more }, true);
  }

  /** After a live turn: reload the newest page if it is the one shown. */
  async refresh(head) {
    this.head = head;
    if (this.page && this.page.hasNewer) { this.paint(); return; }
    const keep = this.selected;
    this.show(await pageBefore(this.id, head + 1, PAGE, this.abort.signal), false, keep);
  }

  show(page, focus, keep) {
    if (page.hasNewer === undefined) page.hasNewer = page.items.length && page.items[page.items.length - 1].seq < this.lastKnown();
    this.page = page;
    if (keep) this.selected = keep;
    this.paint(focus);
    this.loadFacts(page);
  }

  lastKnown() { return this.head ?? Infinity; }

  /** Tokens and side effects of the page's checkpoints, from the journal between them. */
  async loadFacts(page) {
    if (!page.items.length) return;
    const last = page.items[page.items.length - 1].seq;
    const lines = [];
    try {
      await api.events(this.id, page.prevSeq, (id, type, data) => {
        if (!data?.event) return true;
        if (data.seq > last) return false;
        lines.push(data);
        return data.seq < last;
      }, { signal: this.abort.signal });
    } catch (e) {
      if (e.name === 'AbortError') return;
      throw e;
    }
    if (this.page !== page) return;
    this.facts = checkpointFacts(page.items, lines);
    this.paint();
  }

  select(seq, focus = true) {
    const items = this.page.items;
    const i = items.findIndex(c => c.seq === seq);
    if (i < 0) return;
    this.selected = seq;
    const prev = i > 0 ? items[i - 1] : (this.page.prevSeq ? { seq: this.page.prevSeq } : null);
    this.paint(false);
    if (focus) this.el.querySelector(`[data-seq="${seq}"]`)?.focus();
    this.onSelect(items[i], prev);
  }

  paint(focusFirst) {
    const { items, hasOlder, hasNewer } = this.page;
    const focused = this.el.contains(document.activeElement) ? document.activeElement.dataset.seq : null; // kept across a live repaint
    const list = h('ol.timeline', { 'aria-label': 'Checkpoints, newest first', onkeydown: ev => this.keys(ev) });
    for (let i = items.length - 1; i >= 0; i--) list.append(this.item(items[i]));
    const range = items.length ? `seq ${items[0].seq}–${items[items.length - 1].seq}` : 'no checkpoints';
    mount(this.el,
      h('div.timeline-nav',
        h('button', { type: 'button', disabled: !hasNewer, onclick: () => this.newer() }, '← Newer'),
        h('span.muted.small', `${items.length} checkpoints, ${range}`),
        h('button', { type: 'button', disabled: !hasOlder, onclick: () => this.older() }, 'Older →')),
      list);
    if (focusFirst) list.querySelector('button')?.focus();
    else if (focused) list.querySelector(`button.cp[data-seq="${focused}"]`)?.focus();
  }

  item(c) {
    const f = this.facts.get(c.seq);
    const selected = this.selected === c.seq;
    return h('li', h('button.cp', { type: 'button', 'aria-pressed': String(selected), class: selected ? 'selected' : null,
      dataset: { seq: c.seq }, onclick: () => this.select(c.seq) },
      h('span.cp-line',
        h('span.cp-seq', 'seq ' + c.seq),
        h('span.src.src-' + c.source, c.source),
        h('span.muted.small', { title: c.time }, shortTime(c.time)),
        f && f.tokens ? h('span.small', num(f.tokens) + ' tok') : null,
        f && f.effects.length ? h('span.tag.effect-side_effect', { title: f.effects.map(e => e.name + ' (' + e.toolUseId + ')').join(', ') },
          `⚠ ${f.effects.length} side effect${f.effects.length === 1 ? '' : 's'}: ${f.effects.map(e => e.name).join(', ')}`) : null),
      h('span.cp-preview', cut(c.preview, 120))));
  }

  keys(ev) {
    if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp' && ev.key !== 'Home' && ev.key !== 'End') return;
    const buttons = [...this.el.querySelectorAll('button.cp')];
    const at = buttons.indexOf(document.activeElement);
    let next = ev.key === 'ArrowDown' ? at + 1 : ev.key === 'ArrowUp' ? at - 1 : ev.key === 'Home' ? 0 : buttons.length - 1;
    next = Math.max(0, Math.min(buttons.length - 1, next));
    buttons[next]?.focus();
    ev.preventDefault();
  }
}
