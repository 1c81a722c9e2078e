// The OpenAI SDK (openai, unmodified) against threadline serve's /openai/v1 surface (conversations and items).
// Run by CompatSdkTest with THREADLINE_URL, THREADLINE_KEY and THREADLINE_OTHER_KEY (another tenant's key).
import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";

const baseURL = `${process.env.THREADLINE_URL}/openai/v1`;
const client = new OpenAI({ baseURL, apiKey: process.env.THREADLINE_KEY, maxRetries: 0 });
const other = new OpenAI({ baseURL, apiKey: process.env.THREADLINE_OTHER_KEY, maxRetries: 0 });

async function refused(promise, status, param) {
  const e = await promise.then(() => null, (err) => err);
  assert.ok(e, `expected HTTP ${status}, the call succeeded`);
  assert.equal(e.status, status, String(e));
  if (param !== undefined) assert.equal(e.param, param, String(e));
  return e;
}

test("conversations: create with items and metadata, retrieve, update, delete", async () => {
  const conv = await client.conversations.create({
    metadata: { topic: "billing", canary: "canary-oa-3" },
    items: [{ type: "message", role: "user", content: "hello" }],
  });
  assert.match(conv.id, /^conv_[0-9a-f]{48}$/);
  assert.equal(conv.object, "conversation");
  assert.equal(typeof conv.created_at, "number");
  assert.deepEqual(conv.metadata, { canary: "canary-oa-3", topic: "billing" });

  const got = await client.conversations.retrieve(conv.id);
  assert.deepEqual(got, conv);

  const updated = await client.conversations.update(conv.id, { metadata: { topic: "refunds" } });
  assert.deepEqual(updated.metadata, { topic: "refunds" });
  assert.deepEqual((await client.conversations.retrieve(conv.id)).metadata, { topic: "refunds" });

  const deleted = await client.conversations.delete(conv.id);
  assert.deepEqual(deleted, { id: conv.id, object: "conversation.deleted", deleted: true });
  await refused(client.conversations.retrieve(conv.id), 404);
});

test("metadata keeps OpenAI's limits: 16 pairs, 64-character keys, 512-character values", async () => {
  const pairs = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
  await refused(client.conversations.create({ metadata: pairs }), 400, "metadata");
  await refused(client.conversations.create({ metadata: { ["k".repeat(65)]: "v" } }), 400, "metadata");
  await refused(client.conversations.create({ metadata: { k: "v".repeat(513) } }), 400, "metadata.k");
  const ok = await client.conversations.create({
    metadata: { ...Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, "v"])), ["k".repeat(64)]: "v".repeat(512) },
  });
  assert.equal(Object.keys(ok.metadata).length, 16);
  await refused(client.conversations.update(ok.id, { metadata: pairs }), 400, "metadata");
  assert.equal(Object.keys((await client.conversations.retrieve(ok.id)).metadata).length, 16); // unchanged
});

test("items: create, list (paged, both orders), retrieve; delete is refused because history is append-only", async () => {
  const conv = await client.conversations.create({ items: [{ role: "user", content: "hello" }] });
  const added = await client.conversations.items.create(conv.id, {
    items: [
      { role: "assistant", content: "hi there" },
      { type: "message", role: "user", content: [{ type: "input_text", text: "part one" }, { type: "input_text", text: "part two" }] },
    ],
  });
  assert.equal(added.object, "list");
  assert.deepEqual(added.data.map((i) => i.id), ["msg_1", "msg_2"]);
  assert.equal(added.data[0].content[0].type, "output_text");
  assert.equal(added.data[1].content[0].text, "part one\npart two");

  const desc = [];
  for await (const item of client.conversations.items.list(conv.id, { limit: 1 })) desc.push(item.id);
  assert.deepEqual(desc, ["msg_2", "msg_1", "msg_0"]);
  const asc = await client.conversations.items.list(conv.id, { order: "asc", limit: 2 });
  assert.deepEqual(asc.data.map((i) => i.id), ["msg_0", "msg_1"]);
  assert.equal(asc.has_more, true);

  const first = await client.conversations.items.retrieve("msg_0", { conversation_id: conv.id });
  assert.equal(first.role, "user");
  assert.equal(first.content[0].text, "hello");
  await refused(client.conversations.items.retrieve("msg_9", { conversation_id: conv.id }), 404);

  await refused(client.conversations.items.delete("msg_0", { conversation_id: conv.id }), 422, "item_id");
  const after = await client.conversations.items.list(conv.id);
  assert.equal(after.data.length, 3);
});

test("unsupported item types and fields are 422 problems naming them, and change nothing", async () => {
  const conv = await client.conversations.create();
  await refused(client.conversations.items.create(conv.id, {
    items: [{ type: "function_call", call_id: "c1", name: "f", arguments: "{}" }],
  }), 422, "items[0].type");
  await refused(client.conversations.items.create(conv.id, {
    items: [{ role: "user", content: [{ type: "input_image", image_url: "http://127.0.0.1:9/x.png" }] }],
  }), 422, "items[0].content[0].type");
  await refused(client.conversations.items.create(conv.id, { items: [{ role: "user", content: "x" }], include: ["message.output_text.logprobs"] }), 422, "include");
  await refused(client.conversations.create({ items: [{ role: "user", content: "x" }], store: true }), 422, "store");
  const items = await client.conversations.items.list(conv.id);
  assert.equal(items.data.length, 0);
});

test("another tenant's conversation is not found, exactly like an unknown one", async () => {
  const conv = await client.conversations.create({ metadata: { secret: "canary-oa-9" }, items: [{ role: "user", content: "canary-oa-9" }] });
  const unknown = await refused(other.conversations.retrieve("conv_" + "0".repeat(48)), 404);
  for (const call of [
    () => other.conversations.retrieve(conv.id),
    () => other.conversations.update(conv.id, { metadata: {} }),
    () => other.conversations.delete(conv.id),
    () => other.conversations.items.list(conv.id),
    () => other.conversations.items.retrieve("msg_0", { conversation_id: conv.id }),
    () => other.conversations.items.create(conv.id, { items: [{ role: "user", content: "x" }] }),
    () => other.conversations.items.delete("msg_0", { conversation_id: conv.id }),
  ]) {
    const e = await refused(call(), 404);
    assert.equal(e.message, unknown.message);
    assert.ok(!JSON.stringify(e.error).includes("canary"));
  }
  assert.equal((await client.conversations.items.list(conv.id)).data.length, 1); // nothing changed
  const nokey = new OpenAI({ baseURL, apiKey: "tl_not-a-key", maxRetries: 0 });
  await refused(nokey.conversations.retrieve(conv.id), 401);
});

test("endpoints Threadline does not serve are 422 problems naming the operation", async () => {
  await refused(client.responses.create({ model: "scripted", input: "hi" }), 422, "POST /responses");
  await refused(client.models.list(), 422, "GET /models");
});

test("an Idempotency-Key makes a retried create or item append return the first outcome and append nothing", async () => {
  const suffix = Math.random().toString(36).slice(2);
  const opts = (key) => ({ headers: { "Idempotency-Key": key } });
  const c1 = await client.conversations.create({ items: [{ role: "user", content: "once" }] }, opts(`conv-${suffix}`));
  const c2 = await client.conversations.create({ items: [{ role: "user", content: "once" }] }, opts(`conv-${suffix}`));
  assert.equal(c2.id, c1.id);
  const a1 = await client.conversations.items.create(c1.id, { items: [{ role: "assistant", content: "reply" }] }, opts(`item-${suffix}`));
  const a2 = await client.conversations.items.create(c1.id, { items: [{ role: "assistant", content: "reply" }] }, opts(`item-${suffix}`));
  assert.deepEqual(a2, a1);
  await refused(client.conversations.items.create(c1.id, { items: [{ role: "assistant", content: "other" }] }, opts(`item-${suffix}`)), 422, "Idempotency-Key");
  assert.deepEqual((await client.conversations.items.list(c1.id, { order: "asc" })).data.map((i) => i.content[0].text), ["once", "reply"]);
});
