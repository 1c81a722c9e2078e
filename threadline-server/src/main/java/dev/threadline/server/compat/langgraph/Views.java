package dev.threadline.server.compat.langgraph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.PendingToolCall;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The LangGraph API's JSON shapes over Threadline's: a session as a thread, its state as the thread's
 * {@code values} ({@code messages} in LangChain's serialised form, then the session's variables), a
 * checkpoint as a {@code ThreadState} whose {@code checkpoint_id} is the seq, and calls waiting for a
 * person as interrupts. Stateless.
 */
final class Views {
    /** Variables of this prefix are the compatible surfaces' own bookkeeping and are not shown as values. */
    static final String RESERVED = "_compat.";

    private Views() {}

    /** The id of the message at {@code index} of a transcript ({@code k}: the k-th result of a tool message). */
    static String messageId(int index, int k) {
        return k < 0 ? "m" + index : "m" + index + "." + k;
    }

    /** A transcript as LangChain messages (a tool message of n results becomes n tool messages). */
    static ArrayNode messages(List<Message> transcript) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (int i = 0; i < transcript.size(); i++) {
            addMessage(out, transcript.get(i), i);
        }
        return out;
    }

    static void addMessage(ArrayNode out, Message m, int index) {
        switch (m.role()) {
            case USER -> out.add(plain("human", m, index));
            case SYSTEM -> out.add(plain("system", m, index));
            case ASSISTANT -> {
                ObjectNode o = plain("ai", m, index);
                ArrayNode calls = o.putArray("tool_calls");
                for (ContentBlock.ToolUse t : m.toolUses()) {
                    calls.addObject().put("id", t.id()).put("name", t.name()).put("type", "tool_call")
                            .set("args", t.input() == null ? Json.object() : t.input());
                }
                o.putArray("invalid_tool_calls");
                if (m.usage() != null) {
                    o.putObject("usage_metadata").put("input_tokens", m.usage().inputTokens())
                            .put("output_tokens", m.usage().outputTokens())
                            .put("total_tokens", m.usage().inputTokens() + m.usage().outputTokens());
                }
                if (m.stopReason() != null) {
                    o.putObject("response_metadata").put("stop_reason", m.stopReason().wireName());
                }
                out.add(o);
            }
            case TOOL -> {
                List<ContentBlock.ToolResult> results = m.toolResults();
                for (int k = 0; k < results.size(); k++) {
                    ContentBlock.ToolResult r = results.get(k);
                    out.addObject().put("type", "tool").put("id", messageId(index, k)).put("content", r.content())
                            .put("tool_call_id", r.toolUseId()).put("status", r.isError() ? "error" : "success");
                }
            }
        }
    }

    private static ObjectNode plain(String type, Message m, int index) {
        ObjectNode o = Json.object();
        o.put("type", type).put("id", messageId(index, -1)).put("content", m.text());
        return o;
    }

    /** The thread's values: {@code messages}, then every session variable (but the reserved ones). */
    static ObjectNode values(State state) {
        ObjectNode o = Json.object();
        o.set("messages", messages(state.messages()));
        for (Map.Entry<String, JsonNode> v : new java.util.TreeMap<>(state.variables()).entrySet()) {
            if (!v.getKey().startsWith(RESERVED) && !v.getKey().equals("messages")) {
                o.set(v.getKey(), v.getValue());
            }
        }
        return o;
    }

    static String status(SessionStatus s) {
        return switch (s) {
            case IDLE -> "idle";
            case RUNNING -> "busy";
            case AWAITING_APPROVAL, AWAITING_INPUT, BUDGET_EXCEEDED -> "interrupted";
        };
    }

    /** The calls of a suspended turn that wait for a person, as LangGraph interrupts (id = the tool_use id). */
    static ArrayNode interrupts(State state) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (PendingToolCall p : state.pending()) {
            if (p.awaiting() == null || p.answered()) {
                continue;
            }
            ObjectNode value = Json.object();
            if (p.awaiting() == PendingToolCall.Awaiting.APPROVAL) {
                value.put("kind", "approval").put("tool", p.name()).set("arguments", p.input() == null ? Json.object() : p.input());
            } else {
                JsonNode q = p.input() == null ? null : p.input().get("question");
                value.put("kind", "question").put("tool", p.name()).put("question", q != null && q.isTextual() ? q.asText() : String.valueOf(p.input()));
            }
            ObjectNode i = out.addObject();
            i.put("id", p.toolUseId()).set("value", value);
            i.put("when", "during").put("resumable", true);
            i.putArray("ns");
        }
        return out;
    }

    static ObjectNode thread(SessionInfo info, State state, Instant updatedAt) {
        ObjectNode o = Json.object();
        o.put("thread_id", info.id());
        o.put("created_at", info.createdAt().toString());
        String updated = (updatedAt != null ? updatedAt : info.createdAt()).toString();
        o.put("updated_at", updated);
        o.put("state_updated_at", updated);
        ObjectNode meta = o.putObject("metadata");
        new java.util.TreeMap<>(info.metadata()).forEach(meta::put);
        o.put("status", status(state.status()));
        o.set("values", values(state));
        ObjectNode interrupts = o.putObject("interrupts");
        for (JsonNode i : interrupts(state)) {
            interrupts.putArray(i.path("id").asText()).add(i);
        }
        o.putObject("config").putObject("configurable").put("thread_id", info.id());
        o.putNull("error");
        return o;
    }

    static ObjectNode checkpoint(String threadId, Long seq) {
        ObjectNode c = Json.object();
        c.put("thread_id", threadId).put("checkpoint_ns", "");
        if (seq == null) {
            c.putNull("checkpoint_id");
        } else {
            c.put("checkpoint_id", Long.toString(seq));
        }
        c.putNull("checkpoint_map");
        return c;
    }

    /**
     * The state as of checkpoint {@code at} ({@code parent}: the checkpoint before it, or null; {@code cp}: its
     * metadata, or null for the head).
     */
    static ObjectNode threadState(String threadId, State state, Checkpoint cp, Long parentSeq) {
        ObjectNode o = Json.object();
        o.set("values", values(state));
        ArrayNode interrupts = interrupts(state);
        ArrayNode next = o.putArray("next");
        if (!interrupts.isEmpty() || state.status() == SessionStatus.RUNNING) {
            next.add(interrupts.isEmpty() ? "agent" : "tools");
        }
        o.set("checkpoint", checkpoint(threadId, state.seq()));
        ObjectNode meta = o.putObject("metadata");
        if (cp != null) {
            meta.put("source", switch (cp.source()) {
                case INPUT -> "input";
                case EDIT -> "update";
                case FORK -> "fork";
                default -> "loop";
            });
            meta.put("step", cp.step());
            meta.put("threadline_source", cp.source().wireName());
            if (cp.preview() != null) {
                meta.put("preview", cp.preview());
            }
            o.put("created_at", cp.time().toString());
        } else {
            o.putNull("created_at");
        }
        if (parentSeq == null) {
            o.putNull("parent_checkpoint");
        } else {
            o.set("parent_checkpoint", checkpoint(threadId, parentSeq));
        }
        ArrayNode tasks = o.putArray("tasks");
        for (JsonNode i : interrupts) {
            ObjectNode t = tasks.addObject();
            t.put("id", i.path("id").asText()).put("name", i.path("value").path("tool").asText());
            t.putNull("error");
            t.putArray("interrupts").add(i);
            t.putNull("checkpoint");
            t.putNull("state");
        }
        return o;
    }
}
