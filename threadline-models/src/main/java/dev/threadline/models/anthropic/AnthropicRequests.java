package dev.threadline.models.anthropic;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link ChatRequest} as a Messages API request body ({@code POST /v1/messages}):
 * <ul>
 *   <li>the system prompt and any {@code system} messages of the view become the top-level {@code system};</li>
 *   <li>{@code user} and {@code assistant} messages keep their role, with text, image (by URL),
 *       tool_use and signed thinking blocks; thinking without a signature (from another provider) is left out;</li>
 *   <li>our {@code tool} message becomes a user message of {@code tool_result} blocks with {@code is_error};</li>
 *   <li>consecutive messages of one role are merged (a tool result followed by a user message after an
 *       interrupted turn becomes one user turn: results first), empty text and empty messages are left out;</li>
 *   <li>tools are {@code {name, description, input_schema}}.</li>
 * </ul>
 */
final class AnthropicRequests {
    /** A redacted thinking block travels as a thinking block with no text and this prefix on its data. */
    static final String REDACTED = "redacted_thinking:";

    private AnthropicRequests() {}

    static ObjectNode body(ChatRequest request, String model, int thinkingBudget, boolean stream) {
        ObjectNode body = Json.object();
        body.put("model", model);
        int maxTokens = request.maxTokens();
        if (thinkingBudget > 0 && maxTokens <= thinkingBudget) {
            maxTokens = thinkingBudget + request.maxTokens(); // the budget is part of max_tokens
        }
        body.put("max_tokens", maxTokens);
        String system = system(request);
        if (!system.isEmpty()) {
            body.put("system", system);
        }
        body.set("messages", messages(request.messages()));
        if (!request.tools().isEmpty()) {
            body.set("tools", tools(request.tools()));
        }
        if (thinkingBudget > 0) {
            body.putObject("thinking").put("type", "enabled").put("budget_tokens", thinkingBudget);
        }
        if (stream) {
            body.put("stream", true);
        }
        return body;
    }

    /** The count_tokens body: the same fields as a request, without max_tokens and stream. */
    static ObjectNode countTokensBody(ChatRequest request, String model) {
        ObjectNode body = body(request, model, 0, false);
        body.remove("max_tokens");
        return body;
    }

    static String system(ChatRequest request) {
        List<String> parts = new ArrayList<>();
        if (!request.system().isBlank()) {
            parts.add(request.system());
        }
        request.messages().stream().filter(m -> m.role() == Role.SYSTEM && !m.text().isBlank()).forEach(m -> parts.add(m.text()));
        return String.join("\n\n", parts);
    }

    static ArrayNode messages(List<Message> messages) {
        ArrayNode out = Json.mapper().createArrayNode();
        String lastRole = null;
        for (Message m : messages) {
            if (m.role() == Role.SYSTEM) {
                continue;
            }
            String role = m.role() == Role.ASSISTANT ? "assistant" : "user";
            ArrayNode content = Json.mapper().createArrayNode();
            m.content().forEach(b -> block(b, content));
            if (content.isEmpty()) {
                continue;
            }
            if (role.equals(lastRole)) {
                ((ArrayNode) out.get(out.size() - 1).get("content")).addAll(content);
            } else {
                out.addObject().put("role", role).set("content", content);
                lastRole = role;
            }
        }
        return out;
    }

    private static void block(ContentBlock b, ArrayNode content) {
        switch (b) {
            case ContentBlock.Text t -> {
                if (!t.text().isEmpty()) {
                    content.addObject().put("type", "text").put("text", t.text());
                }
            }
            case ContentBlock.ToolUse u -> content.addObject().put("type", "tool_use").put("id", u.id()).put("name", u.name())
                    .set("input", u.input());
            case ContentBlock.ToolResult r -> content.addObject().put("type", "tool_result").put("tool_use_id", r.toolUseId())
                    .put("content", r.content()).put("is_error", r.isError());
            case ContentBlock.Thinking th -> {
                if (th.signature() != null && th.thinking().isEmpty() && th.signature().startsWith(REDACTED)) {
                    content.addObject().put("type", "redacted_thinking").put("data", th.signature().substring(REDACTED.length()));
                } else if (th.signature() != null && !th.signature().isEmpty()) {
                    content.addObject().put("type", "thinking").put("thinking", th.thinking()).put("signature", th.signature());
                }
            }
            case ContentBlock.ImageRef i -> {
                if (i.uri().startsWith("https://") || i.uri().startsWith("http://")) {
                    content.addObject().put("type", "image").putObject("source").put("type", "url").put("url", i.uri());
                } else {
                    content.addObject().put("type", "text").put("text", "[image not sent: " + i.uri() + "]");
                }
            }
        }
    }

    static ArrayNode tools(List<ToolSpec> tools) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (ToolSpec t : tools) {
            ObjectNode tool = out.addObject().put("name", t.name());
            if (t.description() != null && !t.description().isEmpty()) {
                tool.put("description", t.description());
            }
            tool.set("input_schema", t.inputSchema() == null ? Json.object().put("type", "object") : t.inputSchema());
        }
        return out;
    }
}
