// What changed between two states of a session (the timeline's diff), and what a run of journal
// events says about the tool calls and checkpoints in it. Pure functions over the API's JSON.

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The difference from state `before` to state `after` (either may be null: the empty state):
 * messages added and removed (the transcript is append-only, so usually only added), variables
 * added, removed and changed, status, pending calls, tokens, context start and compaction.
 */
export function diffStates(before, after) {
  const a = before || { messages: [], variables: {}, pending: [], status: 'idle', usage: {}, contextStart: 0, compaction: null };
  const b = after || { messages: [], variables: {}, pending: [], status: 'idle', usage: {}, contextStart: 0, compaction: null };
  const am = a.messages || [], bm = b.messages || [];
  let common = Math.min(am.length, bm.length);
  // append-only in the usual case: the shorter one's last message matches and so does the whole prefix
  if (common > 0 && !same(am[common - 1], bm[common - 1])) {
    let i = 0;
    while (i < common && same(am[i], bm[i])) i++;
    common = i;
  }
  const variables = { added: [], removed: [], changed: [] };
  const av = a.variables || {}, bv = b.variables || {};
  for (const k of Object.keys(bv).sort()) {
    if (!(k in av)) variables.added.push({ name: k, value: bv[k] });
    else if (!same(av[k], bv[k])) variables.changed.push({ name: k, from: av[k], to: bv[k] });
  }
  for (const k of Object.keys(av).sort()) if (!(k in bv)) variables.removed.push({ name: k, value: av[k] });
  const tokens = u => (u?.inputTokens || 0) + (u?.outputTokens || 0);
  const pendingIds = p => (p || []).map(c => c.toolUseId + ':' + (c.awaiting || '') + ':' + (c.result ? 'done' : ''));
  return {
    fromSeq: before ? before.seq : 0,
    toSeq: b.seq,
    messagesAdded: bm.slice(common).map((m, i) => ({ index: common + i, message: m })),
    messagesRemoved: am.slice(common).map((m, i) => ({ index: common + i, message: m })),
    variables,
    status: a.status === b.status ? null : { from: a.status, to: b.status },
    pending: same(pendingIds(a.pending), pendingIds(b.pending)) ? null : { from: a.pending || [], to: b.pending || [] },
    tokens: tokens(b.usage) - tokens(a.usage),
    contextStart: a.contextStart === b.contextStart ? null : { from: a.contextStart, to: b.contextStart },
    compaction: same(a.compaction, b.compaction) ? null : { from: a.compaction, to: b.compaction },
    permissionDenials: (b.permissionDenials || 0) - (a.permissionDenials || 0),
  };
}

/** True when a diff shows no change at all. */
export function isEmptyDiff(d) {
  return !d.messagesAdded.length && !d.messagesRemoved.length && !d.variables.added.length && !d.variables.removed.length
    && !d.variables.changed.length && !d.status && !d.pending && !d.tokens && !d.contextStart && !d.compaction
    && !d.permissionDenials;
}

/** The tokens an event used (an assistant message's or a compaction's usage), else 0. */
export function eventTokens(ev) {
  const u = ev.type === 'AssistantMessageReceived' ? ev.message?.usage : ev.type === 'ContextCompacted' ? ev.usage : null;
  return u ? (u.inputTokens || 0) + (u.outputTokens || 0) : 0;
}

const ENDINGS = {
  ToolCallCompleted: e => ({ error: !!e.error, result: e.content }),
  ToolCallFailed: e => ({ error: true, result: 'error: ' + e.reason, ending: 'failed' }),
  ToolCallTimedOut: e => ({ error: true, result: `timed out after ${e.timeoutMillis} ms`, ending: 'timed out' }),
  ApprovalDenied: e => ({ error: true, result: 'denied by the user: ' + e.reason, ending: 'denied' }),
  InputGiven: e => ({ error: false, result: e.answer, ending: 'answered' }),
};

/**
 * Folds journal lines (the export/SSE shape {seq, time, source, event}) into what the transcript
 * shows beside each tool call: calls[toolUseId] = {name, effect, startedAt, endedAt, ms, error,
 * ending, approval}. Call it with each line in order.
 */
export function foldCalls(calls, line) {
  const e = line.event || {};
  const id = e.toolUseId;
  if (!id) return calls;
  const c = calls[id] || (calls[id] = { toolUseId: id });
  switch (e.type) {
    case 'ToolCallStarted':
      c.name = e.name; c.effect = e.effect || c.effect; c.startedAt = line.time; c.startSeq = line.seq;
      break;
    case 'ApprovalRequested': c.name = e.name; c.approval = 'requested'; c.requestedAt = line.time; break;
    case 'ApprovalGiven': c.approval = e.arguments ? 'approved with edited arguments' : 'approved'; break;
    case 'InputRequested': c.question = e.question; c.requestedAt = line.time; break;
    default: {
      const end = ENDINGS[e.type];
      if (end) {
        Object.assign(c, end(e), { endedAt: line.time, endSeq: line.seq });
        const from = c.startedAt || c.requestedAt;
        if (from) c.ms = Date.parse(line.time) - Date.parse(from);
      }
    }
  }
  return calls;
}

/**
 * Per checkpoint of a page (sorted by seq), the tokens used and the side-effect calls made in its
 * step, from the journal lines between the page's previous checkpoint and its last one.
 */
export function checkpointFacts(checkpoints, lines) {
  const facts = new Map(checkpoints.map(c => [c.seq, { tokens: 0, effects: [], tools: [], types: [] }]));
  let k = 0;
  for (const line of lines) {
    while (k < checkpoints.length && checkpoints[k].seq < line.seq) k++;
    if (k >= checkpoints.length) break;
    const f = facts.get(checkpoints[k].seq);
    const e = line.event || {};
    f.types.push(e.type);
    f.tokens += eventTokens(e);
    if (e.type === 'ToolCallStarted') {
      f.tools.push(e.name);
      if (e.effect === 'side_effect') f.effects.push({ name: e.name, toolUseId: e.toolUseId, seq: line.seq });
    }
  }
  return facts;
}

/**
 * A session's status from the last events of its journal, for the list's badges: idle, running,
 * awaiting_approval, awaiting_input, interrupted, or error (the last turn ended by a failure).
 */
export function statusFromTail(lines) {
  if (!lines.length) return 'idle';
  const last = lines[lines.length - 1].event || {};
  switch (last.type) {
    case 'TurnSuspended': {
      for (let i = lines.length - 1; i >= 0; i--) {
        const t = lines[i].event?.type;
        if (t === 'InputRequested') return 'awaiting_input';
        if (t === 'ApprovalRequested') return 'awaiting_approval';
      }
      return 'awaiting_approval';
    }
    case 'TurnInterrupted':
      // a model or store failure, a crash or a refused reply is an error; a person's interrupt is not
      return /error|fail|refused|crash|stopped|stall|budget/i.test(last.reason || '') ? 'error' : 'interrupted';
    case 'UserMessageReceived': case 'AssistantMessageReceived': case 'ToolCallStarted': case 'ToolCallCompleted':
    case 'ToolCallFailed': case 'ToolCallTimedOut': case 'ApprovalGiven': case 'ApprovalDenied': case 'InputGiven':
    case 'ContextRecalled': // chosen before a model call of a running turn
      return 'running';
    case 'VariablesChanged': {
      // inside a turn unless the turn already ended
      for (let i = lines.length - 2; i >= 0; i--) {
        const t = lines[i].event?.type;
        if (t === 'TurnCompleted' || t === 'TurnInterrupted' || t === 'SessionCreated' || t === 'StateEdited') return 'idle';
        if (t === 'UserMessageReceived') return 'running';
      }
      return 'idle';
    }
    default:
      return 'idle';
  }
}
