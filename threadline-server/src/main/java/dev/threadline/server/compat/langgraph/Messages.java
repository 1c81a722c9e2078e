package dev.threadline.server.compat.langgraph;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.Message;
import dev.threadline.server.compat.Body;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import java.util.Set;

/**
 * LangChain-style messages sent by a client ({@code {role: "user", content: "..."}} or the serialised
 * {@code {type: "human", content: ...}}) read as Threadline messages. Content is a string or a list of
 * {@code {type: "text", text}} parts; other parts, tool calls and tool messages are refused with a 422
 * naming them. Stateless.
 */
final class Messages {
    private static final Set<String> FIELDS = Set.of("role", "type", "content");

    private Messages() {}

    static Message parse(JsonNode node, String name, int maxChars) {
        Body m = Body.of(node, name, FIELDS);
        String role = m.string("role", 20);
        String type = m.string("type", 20);
        String kind = role != null ? role : type;
        if (kind == null) {
            throw ApiException.invalid(name + ".role", "is required: user, assistant or system");
        }
        String text = text(m.node("content"), name + ".content", maxChars);
        return switch (kind) {
            case "user", "human" -> Message.user(text);
            case "assistant", "ai" -> Message.assistantText(text);
            case "system" -> Message.system(text);
            default -> throw Body.unsupported(m.name(role != null ? "role" : "type"),
                    "'" + kind + "' messages are not supported here; send user, assistant or system messages");
        };
    }

    /** The text of a message's content: a string, or the text parts of a list joined by newlines. */
    static String text(JsonNode content, String name, int maxChars) {
        if (content == null) {
            throw ApiException.invalid(name, "is required");
        }
        if (content.isTextual()) {
            return JsonBody.checked(name, content.textValue(), maxChars);
        }
        if (!content.isArray()) {
            throw ApiException.invalid(name, "must be a string or a list of text parts");
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            Body part = Body.of(content.get(i), name + "[" + i + "]", Set.of("type", "text"));
            String type = part.string("type", 20);
            if (!"text".equals(type)) {
                throw Body.unsupported(part.name("type"), "only text parts are supported");
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
