package dev.threadline.server.compat.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.server.compat.Body;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A Threadline transcript as OpenAI conversation items, and input items read as messages. A message at
 * index i is item {@code msg_i}; its k-th tool call {@code fc_i_k}; the k-th result of a tool message
 * {@code fco_i_k}. Transcripts only grow, so ids are stable. Stateless.
 */
final class Items {
    private static final Set<String> MESSAGE = Set.of("type", "role", "content");
    private static final Set<String> PART = Set.of("type", "text", "annotations");

    private Items() {}

    static List<ObjectNode> of(List<Message> transcript) {
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < transcript.size(); i++) {
            Message m = transcript.get(i);
            switch (m.role()) {
                case USER, SYSTEM -> out.add(message("msg_" + i, m.role().wireName(), "input_text", m.text()));
                case ASSISTANT -> {
                    if (!m.text().isEmpty() || m.toolUses().isEmpty()) {
                        out.add(message("msg_" + i, "assistant", "output_text", m.text()));
                    }
                    List<ContentBlock.ToolUse> uses = m.toolUses();
                    for (int k = 0; k < uses.size(); k++) {
                        ContentBlock.ToolUse t = uses.get(k);
                        out.add(Json.object().put("id", "fc_" + i + "_" + k).put("type", "function_call").put("call_id", t.id())
                                .put("name", t.name()).put("arguments", Json.write(t.input() == null ? Json.object() : t.input()))
                                .put("status", "completed"));
                    }
                }
                case TOOL -> {
                    List<ContentBlock.ToolResult> results = m.toolResults();
                    for (int k = 0; k < results.size(); k++) {
                        out.add(Json.object().put("id", "fco_" + i + "_" + k).put("type", "function_call_output")
                                .put("call_id", results.get(k).toolUseId()).put("output", results.get(k).content()).put("status", "completed"));
                    }
                }
            }
        }
        return out;
    }

    private static ObjectNode message(String id, String role, String partType, String text) {
        ObjectNode o = Json.object().put("id", id).put("type", "message").put("role", role).put("status", "completed");
        ObjectNode part = o.putArray("content").addObject().put("type", partType).put("text", text);
        if (partType.equals("output_text")) {
            part.putArray("annotations");
        }
        return o;
    }

    /** An input item (an easy input message or a message item) as a Threadline message. */
    static Message parse(JsonNode node, String name, int maxChars) {
        JsonNode t = node == null ? null : node.get("type");
        if (t != null && !t.isNull() && !(t.isTextual() && t.asText().equals("message"))) {
            throw Body.unsupported(name + ".type", "'" + clip(t.asText()) + "' items are not supported; add message items");
        }
        Body item = Body.of(node, name, MESSAGE);
        String role = item.string("role", 20);
        if (role == null) {
            throw ApiException.invalid(item.name("role"), "is required: user, assistant, system or developer");
        }
        String text = text(item.node("content"), item.name("content"), maxChars);
        return switch (role) {
            case "user" -> Message.user(text);
            case "assistant" -> Message.assistantText(text);
            case "system", "developer" -> Message.system(text);
            default -> throw Body.unsupported(item.name("role"), "'" + role + "' messages are not supported");
        };
    }

    private static String clip(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    private static String text(JsonNode content, String name, int maxChars) {
        if (content == null) {
            throw ApiException.invalid(name, "is required");
        }
        if (content.isTextual()) {
            return JsonBody.checked(name, content.textValue(), maxChars);
        }
        if (!content.isArray() || content.isEmpty()) {
            throw ApiException.invalid(name, "must be a string or a non-empty list of text parts");
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode pt = content.get(i).get("type");
            if (pt == null || !Set.of("input_text", "output_text", "text").contains(pt.asText())) {
                throw Body.unsupported(name + "[" + i + "].type", "only text parts (input_text, output_text) are supported");
            }
            Body part = Body.of(content.get(i), name + "[" + i + "]", PART);
            JsonNode ann = part.node("annotations");
            if (ann != null && !(ann.isArray() && ann.isEmpty())) {
                throw Body.unsupported(part.name("annotations"), "annotations are not kept");
            }
            String t = part.string("text", maxChars);
            if (t == null) {
                throw ApiException.invalid(part.name("text"), "is required");
            }
            b.append(b.isEmpty() ? "" : "\n").append(t);
        }
        return JsonBody.checked(name, b.toString(), maxChars);
    }
}
