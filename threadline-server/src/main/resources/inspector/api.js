// The inspector's only way to the server: the public /v1 HTTP API, with the key typed at login.
// The key lives in sessionStorage (this tab, until it closes), never in localStorage or a cookie.

const KEY = 'threadline.apiKey';

/** An answer that was not 2xx: its status and the RFC 9457 problem the server sent. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
  get type() { return (this.problem.type || '').split('/').pop(); }
  get field() { return this.problem.field; }
}

export function apiKey() { return sessionStorage.getItem(KEY); }
export function setApiKey(key) { sessionStorage.setItem(KEY, key); }
export function logout() { sessionStorage.removeItem(KEY); }

/** Called with the error when a request comes back 401 (the app shows the login page). */
let onUnauthorized = () => {};
export function whenUnauthorized(fn) { onUnauthorized = fn; }

const enc = encodeURIComponent;

async function call(method, path, { body, headers = {}, signal, key = apiKey(), raw = false } = {}) {
  const h = { ...headers };
  if (key) h.Authorization = 'Bearer ' + key;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, { title: 'Network error', detail: 'the server did not answer: ' + e.message });
  }
  if (!res.ok) {
    let problem = null;
    try { problem = await res.json(); } catch { /* not JSON */ }
    const err = new ApiError(res.status, problem);
    if (res.status === 401) onUnauthorized(err);
    throw err;
  }
  if (raw) return res;
  if (res.status === 204) return null;
  return res.json();
}

/**
 * Reads a text/event-stream response, calling onEvent({id, event, data}) for each event (data parsed
 * as JSON when it is). Comments (": ping") are skipped. Resolves when the stream ends.
 */
export async function readSse(res, onEvent) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let cut;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      let id = null, event = 'message', data = null;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const val = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'id') id = val;
        else if (field === 'event') event = val;
        else if (field === 'data') data = data === null ? val : data + '\n' + val;
      }
      if (data === null) continue;
      let parsed = data;
      try { parsed = JSON.parse(data); } catch { /* plain text */ }
      if (onEvent(id, event, parsed) === false) { reader.cancel().catch(() => {}); return; }
    }
  }
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.append(k, v);
  const s = q.toString();
  return s ? '?' + s : '';
}

function post(path, body, idempotencyKey, signal) {
  return call('POST', path, { body: body ?? {}, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}, signal });
}

const S = id => '/v1/sessions/' + enc(id);

export const api = {
  /** Checks a key by listing one session (any 2xx means it is valid). */
  check: key => call('GET', '/v1/sessions?limit=1', { key }),
  sessions: ({ user, metadata = {}, limit = 50, cursor } = {}) => {
    const meta = {};
    for (const [k, v] of Object.entries(metadata)) meta['metadata.' + k] = v;
    return call('GET', '/v1/sessions' + query({ limit, cursor, user, ...meta }));
  },
  session: id => call('GET', S(id)),
  state: (id, signal) => call('GET', S(id) + '/state', { signal }),
  checkpoints: (id, cursor, limit = 100, signal) => call('GET', S(id) + '/checkpoints' + query({ cursor, limit }), { signal }),
  stateAt: (id, seq, signal) => call('GET', S(id) + '/checkpoints/' + seq, { signal }),
  approvals: id => call('GET', S(id) + '/approvals'),
  fork: (id, body, key) => post(S(id) + '/fork', body, key),
  rewind: (id, body, key) => post(S(id) + '/rewind', body, key),
  compact: (id, key) => post(S(id) + '/compact', {}, key),
  clear: (id, key) => post(S(id) + '/clear', {}, key),
  interrupt: id => post(S(id) + '/interrupt', {}),
  decide: (id, toolUseId, body, key) => post(S(id) + '/approvals/' + enc(toolUseId), body, key),
  answer: (id, toolUseId, text, key) => post(S(id) + '/answers/' + enc(toolUseId), { text }, key),
  edit: (id, body, key) => post(S(id) + '/edits', body, key),
  exportUrl: id => S(id) + '/export',

  /**
   * Runs a turn (a message, an approval's decision or an answer: each continues or starts a turn) and
   * streams it: onEvent(id, event, data) for each journal event, `delta` (the model's text as it is
   * produced) and the final `result`. Resolves when the stream ends; rejects with ApiError when the
   * command was refused before the turn began.
   */
  async stream(path, body, key, onEvent, signal) {
    const res = await call('POST', path, { body, raw: true, signal,
      headers: { Accept: 'text/event-stream', ...(key ? { 'Idempotency-Key': key } : {}) } });
    await readSse(res, onEvent);
  },
  send: (id, body, key, onEvent, signal) => api.stream(S(id) + '/messages', body, key, onEvent, signal),
  decideStreaming: (id, toolUseId, body, key, onEvent) => api.stream(S(id) + '/approvals/' + enc(toolUseId), body, key, onEvent),
  answerStreaming: (id, toolUseId, text, key, onEvent) => api.stream(S(id) + '/answers/' + enc(toolUseId), { text }, key, onEvent),

  /**
   * Reads the journal after seq `after`: follow=false ends when caught up. onEvent may return false to
   * stop early (the request is cancelled).
   */
  async events(id, after, onEvent, { follow = false, signal } = {}) {
    const res = await call('GET', S(id) + '/events' + query({ after, follow: String(follow) }), { raw: true, signal });
    await readSse(res, onEvent);
  },
};
