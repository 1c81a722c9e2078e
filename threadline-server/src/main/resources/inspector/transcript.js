// The transcript as the model sees it now: what a clear left out and what a compaction summarised
// are one row each (the original messages one click away), then every message with its tool calls,
// their arguments, results, durations, errors and side-effect kinds. Rendered by a VirtualList.
import { h, codeBlock, duration, num } from './dom.js';
import { VirtualList } from './vlist.js';

/** The rows of a state: boundary rows and messages (some shown only when their boundary is opened). */
export function buildRows(state, open = {}) {
  const msgs = state.messages || [];
  const rows = [];
  const start = state.contextStart || 0;
  const c = state.compaction;
  const summarised = c && c.boundary > start;
  if (start > 0) {
    rows.push({ kind: 'cleared', from: 0, to: start });
    if (open.cleared) for (let i = 0; i < start; i++) rows.push({ kind: 'msg', index: i, outside: 'cleared' });
  }
  if (summarised) {
    rows.push({ kind: 'compaction', from: start, to: c.boundary, summary: c.summary });
    if (open.compaction) for (let i = start; i < c.boundary; i++) rows.push({ kind: 'msg', index: i, outside: 'summarised' });
  }
  for (let i = summarised ? c.boundary : start; i < msgs.length; i++) rows.push({ kind: 'msg', index: i });
  return rows;
}

/** tool_use id -> {name, input, index} over a transcript (what a result answers). */
export function toolUses(messages) {
  const uses = new Map();
  messages.forEach((m, index) => {
    if (m.role === 'assistant') for (const b of m.content || []) if (b.type === 'tool_use') uses.set(b.id, { ...b, index });
  });
  return uses;
}

export class Transcript {
  constructor(scroller) {
    this.scroller = scroller;
    this.state = { messages: [] };
    this.rows = [];
    this.open = {};
    this.calls = {}; // from the journal: timing, effect, ending per tool_use id
    this.uses = new Map();
    this.list = new VirtualList(scroller, i => this.renderRow(i), { estimate: 96 });
  }

  /** Shows a new state; stays at the bottom when the viewer was there (a live turn). */
  setState(state, { first = false } = {}) {
    const grew = (state.messages?.length || 0) !== (this.state.messages?.length || 0);
    const sameBase = this.state.contextStart === state.contextStart && JSON.stringify(this.state.compaction) === JSON.stringify(state.compaction);
    this.state = state;
    this.uses = toolUses(state.messages || []);
    this.rows = buildRows(state, this.open);
    if (first || !sameBase) {
      this.list.reset(this.rows.length);
      if (first) this.list.scrollToEnd();
    } else {
      // the same rows plus new ones at the end: rows already measured keep their heights
      this.list.setCount(this.rows.length, { stickToBottom: true });
      if (grew) this.list.refresh();
    }
  }

  /** New journal facts about tool calls (durations, effects): re-render the rows in view. */
  setCalls(calls) {
    this.calls = calls;
    this.list.refresh();
  }

  toggle(which) {
    this.open[which] = !this.open[which];
    const at = this.list.firstVisible();
    this.rows = buildRows(this.state, this.open);
    this.list.reset(this.rows.length);
    this.list.scrollToIndex(at);
  }

  renderRow(i) {
    const el = this.row(i);
    el.setAttribute('role', 'listitem'); // the list is virtual: say where the row is in the whole
    el.setAttribute('aria-posinset', String(i + 1));
    el.setAttribute('aria-setsize', String(this.rows.length));
    return el;
  }

  row(i) {
    const r = this.rows[i];
    if (r.kind === 'cleared') {
      return h('div.boundary.cleared',
        h('div', h('strong', 'Context cleared'), ` — the ${num(r.to)} earlier message${r.to === 1 ? '' : 's'} are kept in the journal `,
          'but not sent to the model.'),
        h('button.link', { type: 'button', 'aria-expanded': String(!!this.open.cleared), onclick: () => this.toggle('cleared') },
          this.open.cleared ? 'hide them' : `show the ${num(r.to)} messages`));
    }
    if (r.kind === 'compaction') {
      const n = r.to - r.from;
      return h('div.boundary.compaction',
        h('div.boundary-title', h('strong', 'Compaction boundary'), ` — this summary replaces ${num(n)} message${n === 1 ? '' : 's'} `,
          `(#${r.from}–#${r.to - 1}) in what the model sees:`),
        h('blockquote.summary', r.summary),
        h('button.link', { type: 'button', 'aria-expanded': String(!!this.open.compaction), onclick: () => this.toggle('compaction') },
          this.open.compaction ? 'hide the original messages' : `show the ${num(n)} original messages`));
    }
    return this.renderMessage(r.index, r.outside);
  }

  renderMessage(index, outside) {
    const m = this.state.messages[index];
    const usage = m.usage ? (m.usage.inputTokens || 0) + (m.usage.outputTokens || 0) : 0;
    return h('article.msg.msg-' + m.role, { class: outside ? 'outside' : null, 'aria-label': `${m.role} message ${index}`,
      dataset: { msg: index } },
      h('header.msg-head',
        h('span.role', m.role),
        h('span.idx', '#' + index),
        outside ? h('span.tag', outside === 'cleared' ? 'not in context (cleared)' : 'summarised') : null,
        usage ? h('span.muted.small', `${num(m.usage.inputTokens)} in · ${num(m.usage.outputTokens)} out tokens`) : null,
        m.stopReason && m.stopReason !== 'end_turn' ? h('span.muted.small', m.stopReason) : null),
      (m.content || []).map(b => this.renderBlock(b)));
  }

  renderBlock(b) {
    switch (b.type) {
      case 'text': return h('div.text', b.text);
      case 'thinking': return h('details.thinking', h('summary', 'thinking'), h('div.text', b.thinking));
      case 'tool_use': {
        const c = this.calls[b.id] || {};
        return h('div.call', { dataset: { toolUse: b.id } },
          h('div.call-head', h('span.arrow', { 'aria-hidden': 'true' }, '→'), h('strong', b.name), effectTag(c.effect),
            c.approval ? h('span.tag', c.approval) : null, h('code.muted.small', b.id)),
          codeBlock(b.input, 1200));
      }
      case 'tool_result': {
        const c = this.calls[b.toolUseId] || {};
        const use = this.uses.get(b.toolUseId);
        return h('div.result', { class: b.isError ? 'is-error' : null, dataset: { toolResult: b.toolUseId } },
          h('div.call-head', h('span.arrow', { 'aria-hidden': 'true' }, b.isError ? '✗' : '←'),
            h('strong', use ? use.name : 'result'), b.isError ? h('span.tag.tag-error', c.ending || 'error') : (c.ending ? h('span.tag', c.ending) : null),
            effectTag(c.effect), c.ms !== undefined ? h('span.muted.small', duration(c.ms)) : null),
          codeBlock(b.content, 1500));
      }
      case 'image_ref': return h('div.muted', '(image ', b.uri || b.id || '', ')');
      default: return h('div.muted', '(' + b.type + ' block)');
    }
  }
}

function effectTag(effect) {
  if (!effect) return null;
  return h('span.tag.effect-' + effect, { title: 'declared effect of this tool' }, effect.replace('_', ' '));
}
