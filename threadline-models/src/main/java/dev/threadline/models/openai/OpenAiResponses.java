package dev.threadline.models.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.models.internal.Replies;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Chat Completions response: the first choice's {@code reasoning_content} (as sent by vLLM,
 * llama.cpp and DeepSeek: a thinking block), {@code content} or {@code refusal}, and
 * {@code tool_calls}; {@code finish_reason}; and usage. {@code prompt_tokens} includes
 * {@code cached_tokens}; Threadline's {@link Usage#inputTokens()} does not (as with Anthropic), so
 * the cached part is moved to {@code cacheReadTokens}.
 */
final class OpenAiResponses {
    private OpenAiResponses() {}

    static ChatResponse response(JsonNode root) {
        JsonNode choice = root.path("choices").path(0);
        JsonNode msg = choice.path("message");
        List<ContentBlock> blocks = new ArrayList<>();
        String reasoning = msg.path("reasoning_content").asText("");
        if (!reasoning.isEmpty()) {
            blocks.add(new ContentBlock.Thinking(reasoning, null));
        }
        String refusal = msg.path("refusal").asText("");
        String text = msg.path("content").isTextual() ? msg.path("content").asText() : "";
        if (!text.isEmpty() || !refusal.isEmpty()) {
            blocks.add(ContentBlock.text(text.isEmpty() ? refusal : text));
        }
        for (JsonNode call : msg.path("tool_calls")) {
            blocks.add(toolUse(call.path("id").asText(""), call.path("function").path("name").asText(""),
                    call.path("function").path("arguments")));
        }
        StopReason stop = stopReason(choice.path("finish_reason").asText(null), !msg.path("tool_calls").isEmpty(), !refusal.isEmpty());
        return new ChatResponse(Replies.withoutCutOffToolUse(blocks, stop), stop, usage(root.path("usage")));
    }

    /** A tool call; arguments are a JSON string by the spec, but some servers send an object. */
    static ContentBlock.ToolUse toolUse(String id, String name, JsonNode arguments) {
        JsonNode input = arguments.isTextual() ? Replies.toolInput(arguments.asText()) : Replies.toolInput(arguments);
        return new ContentBlock.ToolUse(id.isBlank() ? Replies.newToolUseId() : id, name.isBlank() ? "unnamed_tool" : name, input);
    }

    /**
     * {@code stop}/{@code tool_calls}/{@code length}/{@code content_filter} as ours. Some local
     * servers say {@code stop} although they return tool calls: the calls decide.
     */
    static StopReason stopReason(String finish, boolean hasToolCalls, boolean refused) {
        if (refused) {
            return StopReason.REFUSAL;
        }
        if (finish == null) {
            return hasToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        }
        return switch (finish) {
            case "length" -> StopReason.MAX_TOKENS;
            case "content_filter" -> StopReason.REFUSAL;
            case "tool_calls", "function_call" -> StopReason.TOOL_USE;
            default -> hasToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        };
    }

    static Usage usage(JsonNode u) {
        if (u == null || !u.isObject()) {
            return Usage.ZERO;
        }
        long prompt = Math.max(0, u.path("prompt_tokens").asLong(0));
        long cached = Math.min(prompt, Math.max(0, u.path("prompt_tokens_details").path("cached_tokens").asLong(0)));
        return new Usage(prompt - cached, Math.max(0, u.path("completion_tokens").asLong(0)), cached, 0);
    }
}
