// A session page: its head (status, lineage, branches, commands), the live transcript with the calls
// waiting for a person and the composer, and beside it the timeline with the selected checkpoint, or
// the variables editor. Live through the observer SSE stream (GET /events), resumed after its last seq.
import { h, mount, badge, num, notify, actionKey, cut } from './dom.js';
import { api, apiKey } from './api.js';
import { foldCalls, statusFromTail } from './diff.js';
import { Transcript } from './transcript.js';
import { Timeline } from './timeline.js';
import { showCheckpoint, updateUndone } from './checkpoint.js';
import { awaiting, renderAwaiting, composer, variablesPanel } from './panels.js';

/** First-paint times of the last session page opened, for the browser test and the curious (ms since navigation start). */
window.__inspector = window.__inspector || {};

export function sessionPage(main, id, params) {
  const abort = new AbortController();
  const signal = abort.signal;
  const t0 = performance.now();
  const perf = window.__inspector.paint = { session: id, start: t0 };
  let state = null;
  let info = null;
  let calls = {};
  let lastTail = [];
  let viewing = null; // a past state shown in the transcript instead of now
  let deltas = '';

  const title = h('h1.sid-title', id);
  const status = h('span#status');
  const lineage = h('p.lineage');
  const branches = h('div.branches');
  const commands = h('div.actions.commands');
  const banner = h('div.banner', { hidden: true, role: 'status' });
  const scroller = h('div.transcript#transcript', { tabindex: '0', role: 'list', 'aria-label': 'Transcript (scroll with the arrow keys)' });
  const streaming = h('div.streaming', { hidden: true, 'aria-live': 'polite', 'aria-label': 'The reply as it streams' });
  const waiting = h('section.awaiting', { hidden: true, 'aria-label': 'Calls waiting for you' });
  const timelineEl = h('div.timeline-box');
  const detailEl = h('div.detail', { 'aria-live': 'polite' }, h('p.muted', 'Select a checkpoint to see the state then and what changed.'));
  const varsEl = h('div.vars-box');
  const tabTimeline = h('button.tab', { type: 'button', role: 'tab', 'aria-selected': 'true', 'aria-controls': 'panel-timeline', id: 'tab-timeline' }, 'Timeline');
  const tabVars = h('button.tab', { type: 'button', role: 'tab', 'aria-selected': 'false', 'aria-controls': 'panel-vars', id: 'tab-vars' }, 'Variables');
  const panelTimeline = h('section#panel-timeline', { role: 'tabpanel', 'aria-labelledby': 'tab-timeline' }, timelineEl, detailEl);
  const panelVars = h('section#panel-vars', { role: 'tabpanel', 'aria-labelledby': 'tab-vars', hidden: true }, varsEl);
  const selectTab = which => {
    const t = which === 'vars';
    tabTimeline.setAttribute('aria-selected', String(!t));
    tabVars.setAttribute('aria-selected', String(t));
    panelTimeline.hidden = t;
    panelVars.hidden = !t;
  };
  tabTimeline.addEventListener('click', () => selectTab('timeline'));
  tabVars.addEventListener('click', () => selectTab('vars'));
  const tabs = h('div.tabs', { role: 'tablist', 'aria-label': 'Session details', onkeydown: ev => {
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
      const next = document.activeElement === tabTimeline ? tabVars : tabTimeline;
      next.focus();
      next.click();
    }
  } }, tabTimeline, tabVars);

  // the reply as it streams: the token deltas of the current model call, shown until its whole
  // message is journalled (the server sends a reply's deltas before its AssistantMessageReceived)
  let streamCall = 0;
  const clearStream = () => { deltas = ''; streaming.hidden = true; mount(streaming); };
  const sink = {
    onDelta(text, modelCall) {
      if (modelCall !== streamCall) { streamCall = modelCall; deltas = ''; }
      deltas += text;
      const seen = window.__inspector.stream = window.__inspector.stream || { deltas: 0 };
      seen.deltas++;
      seen.text = deltas;
      streaming.hidden = false;
      mount(streaming, h('span.role', 'assistant'), h('span.muted.small', ' streaming…'), h('div.text', deltas));
      if (transcript.list.atBottom()) scroller.scrollTop = scroller.scrollHeight;
    },
    onMessage() { clearStream(); },
    onDone() { streamCall = 0; clearStream(); refreshSoon(0); },
  };
  const compose = composer(id, sink);

  mount(main,
    h('div.session-head',
      h('div.head-line', title, status, h('a.muted.small', { href: '#/sessions' }, '← all sessions')),
      lineage, branches, commands),
    h('div.session-grid',
      h('section.left', { 'aria-label': 'Transcript and steering' },
        banner, scroller, streaming, waiting, compose),
      h('aside.right', tabs, panelTimeline, panelVars)));

  const transcript = new Transcript(scroller);
  const vars = variablesPanel(varsEl, id, () => refreshSoon(0));
  const timeline = new Timeline(timelineEl, id, (cp, prev) => {
    detailAbort?.abort();
    detailAbort = new AbortController();
    showCheckpoint(detailEl, id, cp, prev, s => viewState(s), detailAbort.signal, effectsAfter);
    history.replaceState(null, '', `#/session/${encodeURIComponent(id)}?cp=${cp.seq}`); // a link to this checkpoint
  });
  let detailAbort = null;

  /** The side-effect calls that ran after seq (from the journal read in the background): what a branch there cannot undo. */
  function effectsAfter(seq) {
    return Object.values(calls).filter(c => c.effect === 'side_effect' && c.startSeq > seq && c.endedAt && !c.error)
      .sort((a, b) => a.startSeq - b.startSeq);
  }

  function viewState(s) {
    viewing = s;
    banner.hidden = false;
    mount(banner, `Showing the transcript as of seq ${s.seq} (${num(s.messages.length)} messages). `,
      h('button.link', { type: 'button', onclick: () => { viewing = null; banner.hidden = true; transcript.setState(state, { first: true }); } },
        'Back to now'));
    transcript.setState(s, { first: true });
    scroller.focus();
  }

  function paintHead() {
    const st = state.status === 'idle' && statusFromTail(lastTail) === 'error' ? 'error' : state.status;
    mount(status, badge(st));
    mount(lineage, info.parentId ? ['Branch of ', h('a', { href: '#/session/' + encodeURIComponent(info.parentId) }, info.parentId),
      ` at seq ${info.parentSeq}. `] : null,
    `User ${info.userId} · model ${info.config?.model ?? '?'} · ${num(state.messages.length)} messages · seq ${state.seq} · `,
    `${num(state.usage?.inputTokens)} in / ${num(state.usage?.outputTokens)} out tokens`,
    Object.keys(info.metadata || {}).length ? [' · ', Object.entries(info.metadata).map(([k, v]) => h('span.chip', cut(`${k}=${v}`, 40)))] : null);
    const running = state.status === 'running';
    mount(commands,
      h('button', { type: 'button', onclick: () => command('compact') }, 'Compact'),
      h('button', { type: 'button', onclick: () => command('clear') }, 'Clear context'),
      h('button', { type: 'button', disabled: !running, onclick: () => command('interrupt') }, 'Interrupt'),
      h('button', { type: 'button', onclick: () => exportJournal() }, 'Export journal'));
  }

  async function command(kind) {
    if (kind === 'clear' && !confirm('Clear the model\'s context? The journal keeps every message; the model will not see them.')) return;
    try {
      if (kind === 'compact') {
        const r = await api.compact(id, actionKey());
        notify(r.compacted ? `Compacted: ${num(r.summarised)} messages summarised (${num(r.tokensBefore)} → ${num(r.tokensAfter)} tokens).`
          : 'Nothing to compact.');
      } else if (kind === 'clear') {
        await api.clear(id, actionKey());
        notify('Context cleared.');
      } else {
        const r = await api.interrupt(id);
        notify(r.interrupted ? 'Interrupted the running turn.' : 'No turn was running on this node.');
      }
    } catch (e) {
      notify(`${kind} failed: ${e.message}`, 'error');
    }
    refreshSoon(0);
  }

  async function exportJournal() {
    try {
      const res = await fetch(api.exportUrl(id), { headers: { Authorization: 'Bearer ' + apiKey() } });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      const url = URL.createObjectURL(await res.blob());
      const a = h('a', { href: url, download: id + '.jsonl' });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      notify('Export failed: ' + e.message, 'error');
    }
  }

  async function paintAwaiting() {
    try {
      renderAwaiting(waiting, id, await awaiting(id, state), () => refreshSoon(0), sink);
    } catch (e) {
      notify('Could not read the approvals: ' + e.message, 'error');
    }
  }

  async function paintBranches() {
    const kids = [];
    try {
      let cursor;
      for (let page = 0; page < 3; page++) { // the 3,000 most recently updated sessions
        const p = await api.sessions({ limit: 1000, cursor });
        kids.push(...p.items.filter(s => s.parentId === id));
        if (!p.nextCursor) break;
        cursor = p.nextCursor;
      }
    } catch { return; }
    kids.sort((a, b) => a.parentSeq - b.parentSeq || a.id.localeCompare(b.id));
    mount(branches, kids.length ? [h('span.muted', 'Branches: '), kids.map(k => h('a.chip.branch-link',
      { href: '#/session/' + encodeURIComponent(k.id), dataset: { branch: k.id } }, `${k.id} (at seq ${k.parentSeq})`))] : null);
  }

  // --- live: the observer stream, and a state refresh shortly after events arrive
  let refreshing = null, again = false, timer = 0;
  function refreshSoon(ms = 150) {
    clearTimeout(timer);
    timer = setTimeout(refresh, ms);
  }
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = (async () => {
      try {
        const [s, i] = await Promise.all([api.state(id, signal), api.session(id)]);
        state = s;
        info = i;
        if (!viewing) transcript.setState(state);
        paintHead();
        paintAwaiting();
        vars.update(state);
        timeline.refresh(state.seq).catch(() => {});
      } catch (e) {
        if (e.name !== 'AbortError') notify('Refresh failed: ' + e.message, 'error');
      }
    })();
    await refreshing;
    refreshing = null;
    if (again) { again = false; refresh(); }
  }

  async function follow(after) {
    let cursor = after, wait = 500;
    while (!signal.aborted) {
      try {
        await api.events(id, cursor, (evId, type, data) => {
          if (!data?.event) return;
          wait = 500;
          cursor = data.seq;
          foldCalls(calls, data);
          lastTail = [...lastTail.slice(-20), data];
          refreshSoon(data.event.type === 'TurnCompleted' || data.event.type === 'TurnSuspended' ? 0 : 150);
        }, { follow: true, signal });
      } catch (e) {
        if (e.name === 'AbortError' || signal.aborted) return;
        if (e.status === 404) { notify('This session no longer exists.', 'error'); return; }
      }
      // the stream ended (server restart, proxy timeout): resume right after the last seq seen
      await new Promise(r => setTimeout(r, wait));
      wait = Math.min(wait * 2, 10000);
    }
  }

  /** Tool-call durations, effects and endings from the whole journal, read in the background. */
  async function loadCalls() {
    const res = await fetch(api.exportUrl(id), { signal, headers: { Authorization: 'Bearer ' + apiKey() } });
    if (!res.ok) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const folded = {};
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buf += value;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.includes('"toolUseId"')) foldCalls(folded, JSON.parse(line));
      }
      if (done) break;
    }
    calls = Object.assign(folded, calls); // events seen live since are newer
    transcript.setCalls(calls);
    updateUndone(detailEl, effectsAfter);
  }

  (async () => {
    try {
      [info, state] = await Promise.all([api.session(id), api.state(id, signal)]);
      perf.data = performance.now(); // the state has arrived and is parsed
    } catch (e) {
      if (e.name === 'AbortError') return;
      mount(main, h('h1', id), h('p.error', e.status === 404 ? 'No session with this id in your tenant.' : e.message),
        h('a', { href: '#/sessions' }, '← all sessions'));
      return;
    }
    // the timeline's request first, so it is on its way while the transcript is drawn
    const linked = Number(params.get('cp')); // #/session/ID?cp=SEQ opens the timeline at that checkpoint
    (linked > 0 && linked <= state.seq ? timeline.at(linked, state.seq) : timeline.newest(state.seq))
      .then(() => afterPaint(() => { perf.timeline = performance.now(); done(); }))
      .catch(e => { if (e.name !== 'AbortError') mount(timelineEl, h('p.error', e.message)); });
    paintHead();
    transcript.setState(state, { first: true });
    afterPaint(() => { perf.transcript = performance.now(); done(); });
    paintAwaiting();
    vars.update(state);
    api.events(id, Math.max(0, state.seq - 12), (i, t, d) => { if (d?.event) lastTail.push(d); }, { signal })
      .then(() => paintHead()).catch(() => {});
    paintBranches();
    loadCalls().catch(() => {});
    follow(state.seq);
  })();

  /** Runs fn once the frame that shows what was just drawn has been painted. */
  function afterPaint(fn) {
    requestAnimationFrame(() => setTimeout(fn, 0));
  }

  function done() {
    if (perf.transcript && perf.timeline && !perf.firstPaint) {
      perf.firstPaint = Math.max(perf.transcript, perf.timeline);
      perf.sinceRoute = perf.firstPaint - t0;
      document.body.dataset.painted = id;
    }
  }

  return { dispose: () => { abort.abort(); timeline.dispose(); detailAbort?.abort(); clearTimeout(timer); } };
}
