// Small DOM and formatting helpers shared by the inspector's views. No framework: h() builds elements.

/**
 * Builds an element: h('button.primary#go', {onclick, title}, 'text', child, [more]).
 * Attributes starting with "on" become listeners; null/undefined/false children are skipped;
 * strings become text nodes (never HTML), so data from the API cannot inject markup.
 */
export function h(tag, attrs, ...children) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name || 'div');
  for (const part of rest) {
    if (part[0] === '.') el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.classList.add(...String(v).split(/\s+/).filter(Boolean));
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style') Object.assign(el.style, v); // CSSOM, which the page's CSP allows (style attributes it does not)
    else if (k === 'value' || k === 'checked' || k === 'disabled' || k === 'selected') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces the children of el. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A time as the viewer's local date and time, with seconds. */
export function time(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric',
    hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A time as hh:mm:ss when it is today, else with the day: for dense lists (the full time is in a title). */
export function shortTime(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return iso || '';
  const t = d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return d.toDateString() === new Date().toDateString() ? t : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) + ' ' + t;
}

/** "3 s ago", "5 min ago", or the date when older than a day. */
export function ago(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (isNaN(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return time(iso);
}

/** A duration in ms as "12 ms" or "1.4 s". */
export function duration(ms) {
  if (ms === null || ms === undefined || isNaN(ms)) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 1 : 0)} s`;
}

/** 12,345 with the viewer's separators. */
export function num(n) {
  return Number(n || 0).toLocaleString();
}

/** Text cut to max characters with an ellipsis. */
export function cut(text, max) {
  text = String(text ?? '');
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** JSON for people: two-space indents. */
export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

/** A <pre> of a JSON value (or text), cut at max characters with a button that shows the rest. */
export function codeBlock(value, max = 1500, cls = 'code') {
  const text = typeof value === 'string' ? value : pretty(value);
  const pre = h('pre.' + cls, text.length > max ? text.slice(0, max) + '…' : text);
  if (text.length <= max) return pre;
  const more = h('button.link', { type: 'button', onclick: () => { pre.textContent = text; more.remove(); } },
    `show all ${num(text.length)} characters`);
  return h('div', pre, more);
}

/** The plain text of a message's text blocks. */
export function messageText(m) {
  return (m.content || []).filter(b => b.type === 'text').map(b => b.text).join('\n');
}

/** A one-line preview of a message, as a timeline or diff shows it. */
export function messagePreview(m) {
  const parts = [];
  for (const b of m.content || []) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'tool_use') parts.push(`→ ${b.name}(${cut(JSON.stringify(b.input), 80)})`);
    else if (b.type === 'tool_result') parts.push(`${b.isError ? '✗' : '←'} ${cut(b.content, 80)}`);
    else if (b.type === 'thinking') parts.push('(thinking)');
    else parts.push(`(${b.type})`);
  }
  return cut(parts.join(' · ').replace(/\s+/g, ' '), 160);
}

/** A status badge: idle, running, awaiting approval, awaiting input, error. */
export function badge(status) {
  const s = status || 'unknown';
  const label = { awaiting_approval: 'awaiting approval', awaiting_input: 'awaiting answer' }[s] || s;
  return h('span.badge.badge-' + s.replace(/[^a-z_]/g, ''), { 'data-status': s }, label);
}

/** A fresh Idempotency-Key for one user action. */
export function actionKey() {
  return 'ui-' + (crypto.randomUUID ? crypto.randomUUID() : Math.random().toString(36).slice(2) + Date.now());
}

/** Shows a transient message in the page's status line (role=status, read by screen readers). */
export function notify(text, kind = 'info') {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.className = 'toast toast-' + kind;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => { el.textContent = ''; el.className = 'toast'; }, kind === 'error' ? 12000 : 5000);
}
