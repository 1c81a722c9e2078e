// The inspector's pure functions (no browser): diffs, journal folds, list order, transcript rows.
// They are the served modules themselves, imported from the server's resources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffStates, isEmptyDiff, foldCalls, checkpointFacts, statusFromTail, eventTokens } from '../../main/resources/inspector/diff.js';
import { parseMetadata, treeOrder } from '../../main/resources/inspector/lists.js';
import { buildRows, toolUses } from '../../main/resources/inspector/transcript.js';

const user = text => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text, usage) => ({ role: 'assistant', content: [{ type: 'text', text }], usage });
const state = (seq, messages, variables = {}, extra = {}) => ({ seq, messages, variables, pending: [], status: 'idle',
  usage: { inputTokens: 0, outputTokens: 0 }, contextStart: 0, compaction: null, ...extra });
const line = (seq, event, time = `2026-12-01T10:00:0${seq % 10}Z`) => ({ seq, time, event });

test('a diff lists the messages appended and the variables added, changed and removed', () => {
  const a = state(3, [user('a'), assistant('b')], { keep: 1, change: 'x', drop: true });
  const b = state(7, [user('a'), assistant('b'), user('c')], { keep: 1, change: 'y', add: [1] },
    { status: 'running', usage: { inputTokens: 10, outputTokens: 5 } });
  const d = diffStates(a, b);
  assert.deepEqual(d.messagesAdded.map(m => m.index), [2]);
  assert.deepEqual(d.messagesRemoved, []);
  assert.deepEqual(d.variables.added, [{ name: 'add', value: [1] }]);
  assert.deepEqual(d.variables.changed, [{ name: 'change', from: 'x', to: 'y' }]);
  assert.deepEqual(d.variables.removed, [{ name: 'drop', value: true }]);
  assert.deepEqual(d.status, { from: 'idle', to: 'running' });
  assert.equal(d.tokens, 15);
  assert.equal(isEmptyDiff(d), false);
});

test('a diff of a rolled-back transcript finds the common prefix and lists what was removed', () => {
  const a = state(9, [user('a'), assistant('b'), user('c'), assistant('d')]);
  const b = state(12, [user('a'), assistant('b'), user('e')]);
  const d = diffStates(a, b);
  assert.deepEqual(d.messagesAdded.map(m => m.index), [2]);
  assert.deepEqual(d.messagesRemoved.map(m => m.index), [2, 3]);
});

test('a diff from the empty state adds everything; a state against itself is empty', () => {
  const s = state(4, [user('a'), assistant('b')], { v: 1 });
  assert.equal(diffStates(null, s).messagesAdded.length, 2);
  assert.equal(diffStates(null, s).fromSeq, 0);
  assert.equal(isEmptyDiff(diffStates(s, s)), true);
});

test('tool calls fold into name, effect, ending and duration from the journal', () => {
  const calls = {};
  foldCalls(calls, line(4, { type: 'ToolCallStarted', toolUseId: 't1', name: 'pay', effect: 'side_effect' }, '2026-12-01T10:00:00.000Z'));
  foldCalls(calls, line(5, { type: 'ToolCallCompleted', toolUseId: 't1', content: 'paid', error: false }, '2026-12-01T10:00:00.250Z'));
  foldCalls(calls, line(6, { type: 'ApprovalRequested', toolUseId: 't2', name: 'calculate', arguments: {} }));
  foldCalls(calls, line(7, { type: 'ApprovalDenied', toolUseId: 't2', reason: 'no' }));
  foldCalls(calls, line(8, { type: 'UserMessageReceived', message: user('x') }));
  assert.deepEqual({ name: calls.t1.name, effect: calls.t1.effect, ms: calls.t1.ms, error: calls.t1.error },
    { name: 'pay', effect: 'side_effect', ms: 250, error: false });
  assert.equal(calls.t2.ending, 'denied');
  assert.equal(calls.t2.error, true);
  assert.equal(Object.keys(calls).length, 2);
});

test('each checkpoint gets the tokens and side effects of the events up to it', () => {
  const cps = [{ seq: 2 }, { seq: 4 }, { seq: 6 }];
  const lines = [
    line(1, { type: 'UserMessageReceived', message: user('pay') }),
    line(2, { type: 'AssistantMessageReceived', message: assistant('', { inputTokens: 10, outputTokens: 2 }) }),
    line(3, { type: 'ToolCallStarted', toolUseId: 'p1', name: 'pay', effect: 'side_effect' }),
    line(4, { type: 'ToolCallStarted', toolUseId: 'c1', name: 'calculate', effect: 'read_only' }),
    line(5, { type: 'ContextCompacted', summary: 's', boundary: 0, usage: { inputTokens: 3, outputTokens: 1 } }),
    line(9, { type: 'TurnCompleted', reason: 'after the page' }),
  ];
  const f = checkpointFacts(cps, lines);
  assert.equal(f.get(2).tokens, 12);
  assert.deepEqual(f.get(4).effects.map(e => e.name), ['pay']);
  assert.deepEqual(f.get(4).tools, ['pay', 'calculate']);
  assert.equal(f.get(6).tokens, 4);
  assert.equal(eventTokens({ type: 'Cleared' }), 0);
});

test('a status is read off the journal tail', () => {
  const ev = type => line(1, { type, reason: type === 'TurnInterrupted' ? 'model error: boom' : 'x' });
  assert.equal(statusFromTail([]), 'idle');
  assert.equal(statusFromTail([ev('UserMessageReceived'), ev('TurnCompleted')]), 'idle');
  assert.equal(statusFromTail([ev('UserMessageReceived'), ev('ToolCallStarted')]), 'running');
  assert.equal(statusFromTail([ev('ApprovalRequested'), ev('TurnSuspended')]), 'awaiting_approval');
  assert.equal(statusFromTail([ev('InputRequested'), ev('TurnSuspended')]), 'awaiting_input');
  assert.equal(statusFromTail([ev('TurnInterrupted')]), 'error');
  assert.equal(statusFromTail([line(1, { type: 'TurnInterrupted', reason: 'interrupted by the user' })]), 'interrupted');
  assert.equal(statusFromTail([ev('UserMessageReceived'), ev('VariablesChanged')]), 'running');
  assert.equal(statusFromTail([ev('TurnCompleted'), ev('VariablesChanged')]), 'idle');
  assert.equal(statusFromTail([ev('UserMessageReceived'), ev('ContextRecalled')]), 'running');
});

test('metadata filters parse as KEY=VALUE pairs, and a bad pair is named', () => {
  assert.deepEqual(parseMetadata('topic=demo, team = a=b\nx='), { topic: 'demo', team: 'a=b', x: '' });
  assert.deepEqual(parseMetadata('  '), {});
  assert.throws(() => parseMetadata('topic'), /"topic" is not KEY=VALUE/);
  assert.throws(() => parseMetadata('=v'), /"=v"/);
});

test('branches come right under their parent, ordered by fork seq; orphans stay at the top level', () => {
  const s = (id, parentId, parentSeq = 0) => ({ id, parentId, parentSeq });
  const order = treeOrder([s('b2', 'a', 9), s('x', 'gone', 3), s('a'), s('b1', 'a', 4), s('c', 'b1', 2)]);
  assert.deepEqual(order.map(r => `${r.s.id}:${r.depth}`), ['x:0', 'a:0', 'b1:1', 'c:2', 'b2:1']);
});

test('transcript rows: a clear and a compaction are one row each, their messages shown when opened', () => {
  const msgs = Array.from({ length: 10 }, (_, i) => (i % 2 ? assistant('a' + i) : user('u' + i)));
  const s = state(30, msgs, {}, { contextStart: 2, compaction: { summary: 'sum', boundary: 6 } });
  const rows = buildRows(s);
  assert.deepEqual(rows.map(r => r.kind), ['cleared', 'compaction', 'msg', 'msg', 'msg', 'msg']);
  assert.deepEqual(rows.filter(r => r.kind === 'msg').map(r => r.index), [6, 7, 8, 9]);
  const open = buildRows(s, { cleared: true, compaction: true });
  assert.equal(open.length, 2 + 10);
  assert.deepEqual(open.filter(r => r.outside).map(r => `${r.index}:${r.outside}`),
    ['0:cleared', '1:cleared', '2:summarised', '3:summarised', '4:summarised', '5:summarised']);
  // a compaction at or before the clear summarises nothing the model would see
  assert.deepEqual(buildRows(state(1, msgs, {}, { contextStart: 4, compaction: { summary: 's', boundary: 4 } })).map(r => r.kind)[0], 'cleared');
  assert.equal(buildRows(state(1, msgs, {}, { contextStart: 4, compaction: { summary: 's', boundary: 4 } })).filter(r => r.kind === 'compaction').length, 0);
});

test('tool uses are found by id with the index of their message', () => {
  const m = [user('q'), { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'calculate', input: { expression: '1' } }] }];
  assert.deepEqual(toolUses(m).get('t1'), { type: 'tool_use', id: 't1', name: 'calculate', input: { expression: '1' }, index: 1 });
});
