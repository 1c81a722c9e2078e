package dev.threadline.models.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.models.internal.Replies;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a Messages API response: content blocks (text, tool_use, thinking with its signature,
 * redacted_thinking kept opaque so it can be sent back; server-side tool blocks are skipped), the stop
 * reason, and usage with cache reads and writes. {@code input_tokens} counts input not read from or
 * written to the cache, which is also how Threadline's {@link Usage} counts.
 */
final class AnthropicResponses {
    private AnthropicResponses() {}

    static ChatResponse response(JsonNode root) {
        List<ContentBlock> blocks = new ArrayList<>();
        for (JsonNode b : root.path("content")) {
            ContentBlock block = block(b);
            if (block != null) {
                blocks.add(block);
            }
        }
        StopReason stop = stopReason(root.path("stop_reason").asText(null));
        return new ChatResponse(Replies.withoutCutOffToolUse(blocks, stop), stop, usage(root.path("usage"), Usage.ZERO));
    }

    private static ContentBlock block(JsonNode b) {
        return switch (b.path("type").asText("")) {
            case "text" -> ContentBlock.text(b.path("text").asText(""));
            case "tool_use" -> new ContentBlock.ToolUse(b.path("id").asText(), b.path("name").asText(),
                    Replies.toolInput(b.get("input")));
            case "thinking" -> new ContentBlock.Thinking(b.path("thinking").asText(""), b.path("signature").asText(null));
            case "redacted_thinking" -> new ContentBlock.Thinking("", AnthropicRequests.REDACTED + b.path("data").asText(""));
            default -> null;
        };
    }

    /** The wire stop reason as ours; {@code pause_turn} ends the turn, a full context window counts as max_tokens. */
    static StopReason stopReason(String wire) {
        if (wire == null) {
            return StopReason.END_TURN;
        }
        return switch (wire) {
            case "tool_use" -> StopReason.TOOL_USE;
            case "max_tokens", "model_context_window_exceeded" -> StopReason.MAX_TOKENS;
            case "stop_sequence" -> StopReason.STOP_SEQUENCE;
            case "refusal" -> StopReason.REFUSAL;
            default -> StopReason.END_TURN;
        };
    }

    /** Usage from a {@code usage} object; fields it lacks keep their value in {@code base}. */
    static Usage usage(JsonNode u, Usage base) {
        if (u == null || !u.isObject()) {
            return base;
        }
        return new Usage(count(u, "input_tokens", base.inputTokens()), count(u, "output_tokens", base.outputTokens()),
                count(u, "cache_read_input_tokens", base.cacheReadTokens()),
                count(u, "cache_creation_input_tokens", base.cacheWriteTokens()));
    }

    private static long count(JsonNode u, String field, long otherwise) {
        JsonNode n = u.get(field);
        return n != null && n.canConvertToLong() ? Math.max(0, n.asLong()) : otherwise;
    }
}
