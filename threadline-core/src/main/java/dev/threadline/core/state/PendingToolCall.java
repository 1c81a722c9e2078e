package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.ContentBlock;

/**
 * A tool call the model requested and that has no place in the transcript yet. Its result, once
 * recorded, waits here until every call of the same assistant message is answered; then the reducer
 * appends one tool message holding all results in the order of the tool_use blocks.
 *
 * @param index   position of the tool_use among the assistant message's tool_use blocks
 * @param started whether ToolCallStarted was recorded
 * @param result  the recorded result, or null while none is
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PendingToolCall(String toolUseId, String name, JsonNode input, int index, boolean started,
                              ContentBlock.ToolResult result) {

    /** Whether a result is recorded for the call. */
    public boolean answered() {
        return result != null;
    }

    /** A copy recording that the call started (used by the reducer). */
    public PendingToolCall markStarted() {
        return new PendingToolCall(toolUseId, name, input, index, true, result);
    }

    /** A copy holding the call's result (used by the reducer). */
    public PendingToolCall withResult(ContentBlock.ToolResult r) {
        return new PendingToolCall(toolUseId, name, input, index, started, r);
    }
}
