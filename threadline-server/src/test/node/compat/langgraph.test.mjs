// The LangGraph SDK (@langchain/langgraph-sdk, unmodified) against threadline serve's /langgraph surface.
// Run by CompatSdkTest with THREADLINE_URL, THREADLINE_KEY and THREADLINE_OTHER_KEY (another tenant's key).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@langchain/langgraph-sdk";

const url = process.env.THREADLINE_URL;
const apiUrl = `${url}/langgraph`;
const client = new Client({ apiUrl, apiKey: process.env.THREADLINE_KEY, callerOptions: { maxRetries: 0 } });
const other = new Client({ apiUrl, apiKey: process.env.THREADLINE_OTHER_KEY, callerOptions: { maxRetries: 0 } });
const input = (text) => ({ messages: [{ role: "user", content: text }] });

async function refused(promise, status, field) {
  const e = await promise.then(() => null, (err) => err);
  assert.ok(e, `expected HTTP ${status}, the call succeeded`);
  assert.equal(e.status, status, `status of ${e.message}`);
  if (field) {
    const body = JSON.parse(e.text);
    assert.equal(body.field, field, e.text);
  }
  return e;
}

async function collect(stream) {
  const events = [];
  for await (const part of stream) events.push(part);
  return events;
}

test("threads: create, get and search by metadata; another tenant sees none of them", async () => {
  const t = await client.threads.create({ metadata: { user: "ann", project: "canary-lg-7" } });
  assert.match(t.thread_id, /^[0-9a-f-]{36}$/);
  assert.equal(t.status, "idle");
  assert.deepEqual(t.values.messages, []);
  assert.equal(t.metadata.user, "ann");
  assert.equal(t.metadata.assistant_id, "default");

  const got = await client.threads.get(t.thread_id);
  assert.equal(got.thread_id, t.thread_id);
  assert.equal(got.created_at, t.created_at);

  const found = await client.threads.search({ metadata: { project: "canary-lg-7" } });
  assert.deepEqual(found.map((x) => x.thread_id), [t.thread_id]);
  assert.deepEqual(await client.threads.search({ metadata: { project: "no-such" } }), []);
  assert.equal(await client.threads.count({ metadata: { project: "canary-lg-7" } }), 1);
  assert.equal(await other.threads.count({ metadata: { project: "canary-lg-7" } }), 0);

  const e = await refused(other.threads.get(t.thread_id), 404);
  assert.ok(!e.text.includes("canary"), e.text);
  const unknown = await refused(other.threads.get("00000000-0000-0000-0000-000000000000"), 404);
  assert.equal(JSON.parse(e.text).detail, JSON.parse(unknown.text).detail); // exactly as an unknown one
  assert.deepEqual(await other.threads.search({ metadata: { project: "canary-lg-7" } }), []);
  await client.threads.updateState(t.thread_id, { values: { secret: "canary-lg-7", messages: [{ role: "user", content: "canary-lg-7" }] } });
  const head = (await client.threads.getState(t.thread_id)).checkpoint.checkpoint_id;
  for (const call of [
    () => other.threads.get(t.thread_id),
    () => other.threads.getState(t.thread_id),
    () => other.threads.getState(t.thread_id, head),
    () => other.threads.getState(t.thread_id, { thread_id: t.thread_id, checkpoint_ns: "", checkpoint_id: head }),
    () => other.threads.getHistory(t.thread_id),
    () => other.threads.updateState(t.thread_id, { values: { x: 1 } }),
    () => other.runs.wait(t.thread_id, "default", { input: input("what is 1+1") }),
    () => other.runs.wait(t.thread_id, "default", { command: { resume: true } }),
    () => collect(other.runs.stream(t.thread_id, "default", { input: input("what is 1+1") })),
    () => other.threads.delete(t.thread_id),
  ]) {
    const refusal = await refused(call(), 404);
    assert.ok(!refusal.text.includes("canary"), refusal.text);
    assert.equal(JSON.parse(refusal.text).detail, JSON.parse(unknown.text).detail);
  }
  assert.equal(await other.threads.count(), 0);
  const after = await client.threads.getState(t.thread_id);
  assert.equal(after.checkpoint.checkpoint_id, head); // nothing ran, nothing was deleted
  assert.equal(after.values.secret, "canary-lg-7");

  const nokey = new Client({ apiUrl, apiKey: null, callerOptions: { maxRetries: 0 } });
  await refused(nokey.threads.get(t.thread_id), 401);
});

test("runs.wait runs a turn and answers the thread's values: LangChain messages and the session's variables", async () => {
  const t = await client.threads.create();
  const values = await client.runs.wait(t.thread_id, "default", { input: input("what is (2+3)*4") });
  const types = values.messages.map((m) => m.type);
  assert.equal(types[0], "human");
  assert.equal(values.messages[0].content, "what is (2+3)*4");
  assert.ok(types.includes("tool"), JSON.stringify(types));
  const ai = values.messages.filter((m) => m.type === "ai");
  assert.equal(ai[0].tool_calls[0].name, "calculate");
  assert.match(ai.at(-1).content, /20/);
  const tool = values.messages.find((m) => m.type === "tool");
  assert.equal(tool.tool_call_id, ai[0].tool_calls[0].id);

  const noted = await client.runs.wait(t.thread_id, "default", { input: input("note buy milk") });
  assert.deepEqual(noted.meeting_notes, ["buy milk"]); // a session variable, beside messages
  const state = await client.threads.getState(t.thread_id);
  assert.deepEqual(state.values, noted);
  assert.deepEqual(state.next, []);
  assert.equal(state.checkpoint.thread_id, t.thread_id);
  assert.match(state.checkpoint.checkpoint_id, /^\d+$/);
});

test("history: checkpoints newest first, checkpoint_id = seq, each state readable again", async () => {
  const t = await client.threads.create();
  await client.runs.wait(t.thread_id, "default", { input: input("what is 6*7") });
  const head = await client.threads.getState(t.thread_id);
  const history = await client.threads.getHistory(t.thread_id, { limit: 100 });
  assert.ok(history.length >= 3, `${history.length} checkpoints`);
  assert.equal(history[0].checkpoint.checkpoint_id, head.checkpoint.checkpoint_id);
  const seqs = history.map((h) => Number(h.checkpoint.checkpoint_id));
  assert.deepEqual([...seqs].sort((a, b) => b - a), seqs);
  for (let i = 0; i < history.length - 1; i++) {
    assert.equal(history[i].parent_checkpoint.checkpoint_id, history[i + 1].checkpoint.checkpoint_id);
  }
  assert.equal(history.at(-1).parent_checkpoint, null);
  assert.equal(history[0].metadata.source, "loop");
  const firstInput = history.find((h) => h.metadata.source === "input");
  assert.deepEqual(firstInput.values.messages.map((m) => m.content), ["what is 6*7"]);
  const past = await client.threads.getState(t.thread_id, firstInput.checkpoint.checkpoint_id);
  assert.deepEqual(past.values, firstInput.values);
  const page = await client.threads.getHistory(t.thread_id, { limit: 2, before: { configurable: { checkpoint_id: history[1].checkpoint.checkpoint_id } } });
  assert.deepEqual(page.map((h) => h.checkpoint.checkpoint_id), history.slice(2, 4).map((h) => h.checkpoint.checkpoint_id));
});

test("updateState appends messages and sets variables as one edit step; an older checkpoint is refused", async () => {
  const t = await client.threads.create();
  await client.runs.wait(t.thread_id, "default", { input: input("what is 2+2") });
  const before = await client.threads.getState(t.thread_id);
  const res = await client.threads.updateState(t.thread_id, {
    values: { plan: { step: 1 }, messages: [{ role: "user", content: "a note from ops" }] },
  });
  const after = await client.threads.getState(t.thread_id);
  assert.equal(res.checkpoint.checkpoint_id, after.checkpoint.checkpoint_id);
  assert.deepEqual(after.values.plan, { step: 1 });
  assert.equal(after.values.messages.at(-1).content, "a note from ops");
  assert.equal(after.values.messages.length, before.values.messages.length + 1);
  assert.equal(after.metadata.source, "update");

  await refused(client.threads.updateState(t.thread_id, { values: { plan: 2 }, checkpointId: before.checkpoint.checkpoint_id }), 409, "checkpoint_id");
  await refused(client.threads.updateState(t.thread_id, { values: { plan: 2 }, asNode: "agent" }), 422, "as_node");
  assert.deepEqual((await client.threads.getState(t.thread_id)).values, after.values); // refusals changed nothing
});

test("runs.stream: metadata, then values, updates and messages-tuple events as the journal commits them", async () => {
  const t = await client.threads.create();
  let created;
  const events = await collect(client.runs.stream(t.thread_id, "default", {
    input: input("what is 6*7"),
    streamMode: ["values", "updates", "messages-tuple"],
    onRunCreated: (meta) => { created = meta; },
  }));
  assert.equal(events[0].event, "metadata");
  assert.equal(created.run_id, events[0].data.run_id);
  assert.equal(created.thread_id, t.thread_id);
  const kinds = new Set(events.map((e) => e.event));
  assert.deepEqual([...kinds].sort(), ["messages", "metadata", "updates", "values"]);

  const values = events.filter((e) => e.event === "values");
  const final = await client.threads.getState(t.thread_id);
  assert.deepEqual(values.at(-1).data, final.values);
  assert.equal(values[0].data.messages.at(-1).content, "what is 6*7");

  const nodes = events.filter((e) => e.event === "updates").map((e) => Object.keys(e.data)[0]);
  assert.ok(nodes.includes("agent") && nodes.includes("tools"), nodes.join(","));
  const toolUpdate = events.find((e) => e.event === "updates" && e.data.tools);
  assert.equal(toolUpdate.data.tools.messages[0].type, "tool");

  const tuples = events.filter((e) => e.event === "messages");
  for (const { data } of tuples) {
    assert.equal(data.length, 2);
    assert.equal(typeof data[1].langgraph_node, "string");
  }
  const lastAi = final.values.messages.at(-1);
  const lastCall = Math.max(...tuples.filter((e) => e.data[0].type === "AIMessageChunk").map((e) => Number(e.data[0].id.split("-").at(-1))));
  const streamed = tuples.filter((e) => e.data[0].type === "AIMessageChunk" && e.data[0].id.endsWith(`-${lastCall}`))
    .map((e) => e.data[0].content).join("");
  assert.equal(streamed, lastAi.content); // the deltas add up to the committed reply
  assert.ok(tuples.some((e) => e.data[0].type === "tool"));

  const onlyValues = await collect(client.runs.stream(t.thread_id, "default", { input: input("what is 1+2") }));
  assert.deepEqual([...new Set(onlyValues.map((e) => e.event))], ["metadata", "values"]); // default mode: values
});

test("human in the loop: an approval interrupt resumed with command.resume (approve, reject)", async () => {
  const def = await client.assistants.get("default");
  assert.equal(def.config.configurable.system_prompt, process.env.THREADLINE_DEFAULT_PROMPT); // the server's default config
  const a = await client.assistants.create({ graphId: "default", config: { configurable: { require_approval: ["calculate"] } } });
  assert.deepEqual(a.config.configurable.require_approval, ["calculate"]);
  assert.equal(a.config.configurable.system_prompt, process.env.THREADLINE_DEFAULT_PROMPT); // changed from the default
  assert.equal((await client.assistants.get(a.assistant_id)).assistant_id, a.assistant_id);
  await refused(other.assistants.get(a.assistant_id), 404);
  const t = await client.threads.create({ metadata: { assistant_id: a.assistant_id } });

  const waiting = await client.runs.wait(t.thread_id, a.assistant_id, { input: input("what is 2+3") });
  assert.equal(waiting.__interrupt__.length, 1);
  const interrupt = waiting.__interrupt__[0];
  assert.equal(interrupt.value.kind, "approval");
  assert.equal(interrupt.value.tool, "calculate");
  const thread = await client.threads.get(t.thread_id);
  assert.equal(thread.status, "interrupted");
  assert.deepEqual(Object.keys(thread.interrupts), [interrupt.id]);
  const state = await client.threads.getState(t.thread_id);
  assert.deepEqual(state.next, ["tools"]);
  assert.equal(state.tasks[0].interrupts[0].id, interrupt.id);

  // a resume value that fits no decision is refused and changes nothing
  await refused(client.runs.wait(t.thread_id, a.assistant_id, { command: { resume: { type: "maybe" } } }), 422, "command.resume.type");
  assert.equal((await client.threads.get(t.thread_id)).status, "interrupted");

  const done = await client.runs.wait(t.thread_id, a.assistant_id, { command: { resume: { type: "approve" } } });
  assert.equal(done.__interrupt__, undefined);
  assert.match(done.messages.at(-1).content, /5/);
  assert.equal((await client.threads.get(t.thread_id)).status, "idle");

  const again = await client.runs.wait(t.thread_id, a.assistant_id, { input: input("what is 7-1") });
  const denied = await client.runs.wait(t.thread_id, a.assistant_id, {
    command: { resume: { [again.__interrupt__[0].id]: { type: "reject", message: "not now" } } },
  });
  const toolMsg = denied.messages.filter((m) => m.type === "tool").at(-1);
  assert.equal(toolMsg.status, "error");
  assert.match(toolMsg.content, /not now/);
  await refused(client.runs.wait(t.thread_id, a.assistant_id, { command: { resume: true } }), 409, "command.resume");

  // the thread runs on its assistant's config: another assistant is refused by name
  await refused(client.runs.wait(t.thread_id, "default", { input: input("what is 1+1") }), 422, "assistant_id");
});

test("human in the loop: ask_user is an interrupt answered by command.resume with the text", async () => {
  const a = await client.assistants.create({ graphId: "default", config: { configurable: { model: "asker" } } });
  const t = await client.threads.create({ metadata: { assistant_id: a.assistant_id } });
  const events = await collect(client.runs.stream(t.thread_id, a.assistant_id, { input: input("ask which colour?"), streamMode: "updates" }));
  const interrupt = events.find((e) => e.event === "updates" && e.data.__interrupt__);
  assert.ok(interrupt, JSON.stringify(events));
  assert.equal(interrupt.data.__interrupt__[0].value.kind, "question");
  assert.equal(interrupt.data.__interrupt__[0].value.question, "which colour?");
  const answered = await client.runs.wait(t.thread_id, a.assistant_id, { command: { resume: "blue" } });
  assert.equal(answered.messages.at(-1).content, "you said: blue");
});

async function journal(threadId) {
  const res = await fetch(`${url}/v1/sessions/${threadId}/export`, { headers: { Authorization: `Bearer ${process.env.THREADLINE_KEY}` } });
  assert.equal(res.status, 200);
  return (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
}

/** Starts a held turn ("slow") on a new thread of the gate assistant and waits until it runs. */
async function held(assistant) {
  const t = await client.threads.create({ metadata: { assistant_id: assistant } });
  const first = collect(client.runs.stream(t.thread_id, assistant, { input: input("slow one") }));
  const giveUp = Date.now() + 60_000; // a generous bound, so that a bug fails the test instead of hanging it
  while ((await client.threads.get(t.thread_id)).status !== "busy") {
    assert.ok(Date.now() < giveUp, "the held turn never started");
    await new Promise((r) => setTimeout(r, 5));
  }
  return { t, first };
}

/** A second run on the busy thread; resolves once the server accepted it (its strategy applied). */
function secondRun(t, assistant, text, strategy) {
  let accepted;
  const ready = new Promise((r) => { accepted = r; });
  const done = collect(client.runs.stream(t.thread_id, assistant, { input: input(text), multitaskStrategy: strategy, onRunCreated: accepted }));
  return { ready, done };
}

test("multitaskStrategy maps to double texting: reject, interrupt, rollback, enqueue", async () => {
  const a = await client.assistants.create({ graphId: "default", config: { configurable: { model: "gate" } } });
  const releaser = await client.threads.create({ metadata: { assistant_id: a.assistant_id } });
  const release = () => client.runs.wait(releaser.thread_id, a.assistant_id, { input: input("release") });

  // reject: refused while the turn runs, nothing recorded
  const r = await held(a.assistant_id);
  await refused(client.runs.wait(r.t.thread_id, a.assistant_id, { input: input("what is 1+1"), multitaskStrategy: "reject" }), 409);
  await release();
  await r.first;
  assert.ok(!(await client.threads.getState(r.t.thread_id)).values.messages.some((m) => m.content === "what is 1+1"));

  // interrupt: the running turn ends as interrupted at once (its model call is cancelled, no release
  // needed: a release here would leave a permit that lets the next held turn through), then the new
  // message runs
  const i = await held(a.assistant_id);
  const iSecond = secondRun(i.t, a.assistant_id, "what is 3*3", "interrupt");
  await iSecond.ready;
  await i.first;
  const iValues = (await iSecond.done).filter((e) => e.event === "values").at(-1).data;
  assert.match(iValues.messages.at(-1).content, /9/);
  const iEvents = (await journal(i.t.thread_id)).map((e) => e.event.type);
  assert.ok(iEvents.includes("TurnInterrupted"), iEvents.join(","));
  assert.ok(iValues.messages.some((m) => m.content === "slow one")); // the interrupted turn stays in the transcript

  // rollback: the running turn is set aside on a side branch; the thread continues as if it had not happened
  const b = await held(a.assistant_id);
  const bSecond = secondRun(b.t, a.assistant_id, "what is 4*4", "rollback");
  await bSecond.ready; // interrupts the held turn at once, as above: no release
  await b.first;
  await bSecond.done;
  const bState = await client.threads.getState(b.t.thread_id);
  assert.deepEqual(bState.values.messages.filter((m) => m.type === "human").map((m) => m.content), ["what is 4*4"]);
  assert.match(bState.values.messages.at(-1).content, /16/);

  // enqueue: the new message waits for the running turn, then runs
  const e = await held(a.assistant_id);
  const eSecond = secondRun(e.t, a.assistant_id, "what is 5*5", "enqueue");
  await eSecond.ready;
  await release();
  await e.first;
  await eSecond.done;
  const eState = await client.threads.getState(e.t.thread_id);
  assert.deepEqual(eState.values.messages.filter((m) => m.type === "human").map((m) => m.content), ["slow one", "what is 5*5"]);
  assert.ok(eState.values.messages.some((m) => m.type === "tool" && m.status === "success")); // the first turn ran to its end
  assert.match(eState.values.messages.at(-1).content, /25/);
  assert.ok(!(await journal(e.t.thread_id)).some((x) => x.event.type === "TurnInterrupted"));
});

test("unsupported fields and modes are 422 problems naming them, and change nothing", async () => {
  const t = await client.threads.create();
  await refused(client.runs.wait(t.thread_id, "default", { input: input("what is 1+1"), interruptBefore: ["tools"] }), 422, "interrupt_before");
  await refused(client.runs.wait(t.thread_id, "default", { input: input("what is 1+1"), webhook: "http://127.0.0.1:9/x" }), 422, "webhook");
  await refused(collect(client.runs.stream(t.thread_id, "default", { input: input("what is 1+1"), streamMode: "events" })), 422, "stream_mode");
  await refused(client.runs.wait(t.thread_id, "default", { input: { messages: [{ role: "user", content: "a" }], topic: "x" } }), 422, "input.topic");
  await refused(client.threads.create({ supersteps: [{ updates: [{ values: {}, asNode: "x" }] }] }), 422, "supersteps");
  await refused(client.threads.search({ sortBy: "thread_id" }), 422, "sort_by");
  await refused(client.threads.search({ select: ["values"] }), 422, "select");
  assert.deepEqual((await client.threads.getState(t.thread_id)).values.messages, []);
  assert.equal((await client.threads.getHistory(t.thread_id)).length, 1); // only the creation
});

test("a conversation made with the OpenAI SDK is a thread too (one session, two surfaces)", async () => {
  const res = await fetch(`${url}/openai/v1/conversations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${process.env.THREADLINE_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ role: "user", content: "hello from openai" }] }),
  });
  const conv = await res.json();
  const state = await client.threads.getState(conv.id);
  assert.equal(state.values.messages[0].content, "hello from openai");
});

test("endpoints Threadline does not serve are 422 problems naming the operation", async () => {
  const t = await client.threads.create();
  for (const [call, op] of [
    [() => client.runs.list(t.thread_id), `GET /threads/${t.thread_id}/runs`],
    [() => client.threads.copy(t.thread_id), `POST /threads/${t.thread_id}/copy`],
    [() => client.threads.update(t.thread_id, { metadata: { a: "b" } }), `PATCH /threads/${t.thread_id}`],
    [() => client.crons.search(), "POST /runs/crons/search"],
    [() => client.store.getItem(["ns"], "k"), "GET /store/items"],
    [() => client.assistants.search(), "POST /assistants/search"],
  ]) {
    const e = await refused(call(), 422, op);
    assert.equal(JSON.parse(e.text).type, "https://threadline.dev/problems/unsupported-endpoint");
  }
});

test("an Idempotency-Key makes a retried run or create return the first outcome and append nothing", async () => {
  const keyed = (key) => new Client({ apiUrl, apiKey: process.env.THREADLINE_KEY, defaultHeaders: { "Idempotency-Key": key }, callerOptions: { maxRetries: 0 } });
  const suffix = Math.random().toString(36).slice(2);
  const t1 = await keyed(`create-${suffix}`).threads.create({ metadata: { k: "v" } });
  const t2 = await keyed(`create-${suffix}`).threads.create({ metadata: { k: "v" } });
  assert.equal(t2.thread_id, t1.thread_id);
  await refused(keyed(`create-${suffix}`).threads.create({ metadata: { k: "other" } }), 422, "Idempotency-Key");

  const run = keyed(`run-${suffix}`);
  const first = await run.runs.wait(t1.thread_id, "default", { input: input("what is 8*8") });
  const head = (await client.threads.getState(t1.thread_id)).checkpoint.checkpoint_id;
  const again = await run.runs.wait(t1.thread_id, "default", { input: input("what is 8*8") });
  assert.deepEqual(again, first);
  assert.equal((await client.threads.getState(t1.thread_id)).checkpoint.checkpoint_id, head);
  await refused(run.runs.wait(t1.thread_id, "default", { input: input("what is 9*9") }), 422, "Idempotency-Key");
  assert.equal((await client.threads.getState(t1.thread_id)).checkpoint.checkpoint_id, head);
});
