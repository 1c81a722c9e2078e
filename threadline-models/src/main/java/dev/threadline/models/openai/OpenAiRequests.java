package dev.threadline.models.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import java.util.List;

/**
 * Writes a {@link ChatRequest} as a Chat Completions request body ({@code POST /chat/completions}):
 * <ul>
 *   <li>the system prompt is a first {@code system} message; {@code system} messages stay where they are;</li>
 *   <li>a user message is its text (a content-part array when it has images);</li>
 *   <li>an assistant message is its text (or null) plus {@code tool_calls}
 *       {@code [{id, type: function, function: {name, arguments}}]}, arguments as a JSON string;
 *       thinking blocks are not sent (the API has no place for them);</li>
 *   <li>our {@code tool} message becomes one {@code tool} message per result, with its
 *       {@code tool_call_id}; the API has no error flag, so an error result's content starts with
 *       {@code "Error: "};</li>
 *   <li>tools are {@code {type: function, function: {name, description, parameters}}}.</li>
 * </ul>
 */
final class OpenAiRequests {
    static final String ERROR_PREFIX = "Error: ";

    private OpenAiRequests() {}

    static ObjectNode body(ChatRequest request, String model, String maxTokensField, boolean stream) {
        ObjectNode body = Json.object();
        body.put("model", model);
        body.set("messages", messages(request));
        if (!request.tools().isEmpty()) {
            body.set("tools", tools(request.tools()));
        }
        body.put(maxTokensField, request.maxTokens());
        if (stream) {
            body.put("stream", true);
            body.putObject("stream_options").put("include_usage", true);
        }
        return body;
    }

    static ArrayNode messages(ChatRequest request) {
        ArrayNode out = Json.mapper().createArrayNode();
        if (!request.system().isBlank()) {
            out.addObject().put("role", "system").put("content", request.system());
        }
        for (Message m : request.messages()) {
            switch (m.role()) {
                case SYSTEM -> out.addObject().put("role", "system").put("content", m.text());
                case USER -> user(m, out.addObject().put("role", "user"));
                case ASSISTANT -> assistant(m, out.addObject().put("role", "assistant"));
                case TOOL -> m.toolResults().forEach(r -> out.addObject().put("role", "tool").put("tool_call_id", r.toolUseId())
                        .put("content", r.isError() ? ERROR_PREFIX + r.content() : r.content()));
            }
        }
        return out;
    }

    private static void user(Message m, ObjectNode msg) {
        if (m.content().stream().noneMatch(b -> b instanceof ContentBlock.ImageRef)) {
            msg.put("content", m.text());
            return;
        }
        ArrayNode parts = msg.putArray("content");
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.Text t) {
                parts.addObject().put("type", "text").put("text", t.text());
            } else if (b instanceof ContentBlock.ImageRef i) {
                parts.addObject().put("type", "image_url").putObject("image_url").put("url", i.uri());
            }
        }
    }

    private static void assistant(Message m, ObjectNode msg) {
        String text = m.text();
        List<ContentBlock.ToolUse> uses = m.toolUses();
        if (text.isEmpty() && !uses.isEmpty()) {
            msg.putNull("content");
        } else {
            msg.put("content", text);
        }
        if (!uses.isEmpty()) {
            ArrayNode calls = msg.putArray("tool_calls");
            for (ContentBlock.ToolUse u : uses) {
                calls.addObject().put("id", u.id()).put("type", "function").putObject("function")
                        .put("name", u.name()).put("arguments", Json.write(u.input()));
            }
        }
    }

    static ArrayNode tools(List<ToolSpec> tools) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (ToolSpec t : tools) {
            ObjectNode fn = out.addObject().put("type", "function").putObject("function").put("name", t.name());
            if (t.description() != null && !t.description().isEmpty()) {
                fn.put("description", t.description());
            }
            fn.set("parameters", t.inputSchema() == null ? Json.object().put("type", "object") : t.inputSchema());
        }
        return out;
    }
}
