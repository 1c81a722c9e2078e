package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.model.ContentBlock;

/**
 * A tool call the model requested and that has no place in the transcript yet. Its result, once
 * recorded, waits here until every call of the same assistant message is answered; then the reducer
 * appends one tool message holding all results in the order of the tool_use blocks. Immutable.
 *
 * @param input    the arguments the call runs with (those of the tool_use, or the ones a person
 *                 approved in their place)
 * @param index    position of the tool_use among the assistant message's tool_use blocks
 * @param started  whether ToolCallStarted was recorded
 * @param result   the recorded result, or null while none is
 * @param awaiting what a person still has to give before the call can be answered, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PendingToolCall(String toolUseId, String name, JsonNode input, int index, boolean started,
                              ContentBlock.ToolResult result, Awaiting awaiting) {

    /** What a suspended call waits for. */
    public enum Awaiting {
        /** A yes or no (approve / deny) before it runs. */
        APPROVAL,
        /** The user's answer, which becomes its result (the {@code ask_user} skill). */
        ANSWER
    }

    /** The stored form's constructor (a call stored before humans in the loop has no {@code awaiting}: null). */
    @JsonCreator
    public PendingToolCall {
    }

    /** A call that awaits nothing (the shape before humans in the loop). */
    public PendingToolCall(String toolUseId, String name, JsonNode input, int index, boolean started,
                           ContentBlock.ToolResult result) {
        this(toolUseId, name, input, index, started, result, null);
    }

    /** Whether a result is recorded for the call. */
    public boolean answered() {
        return result != null;
    }

    /** Whether the call waits for a person (not a bean getter, so not a stored field). */
    public boolean waitsForAPerson() {
        return awaiting != null;
    }

    /** A copy recording that the call started (used by the reducer). */
    public PendingToolCall markStarted() {
        return new PendingToolCall(toolUseId, name, input, index, true, result, awaiting);
    }

    /** A copy holding the call's result, awaiting nothing more (used by the reducer). */
    public PendingToolCall withResult(ContentBlock.ToolResult r) {
        return new PendingToolCall(toolUseId, name, input, index, started, r, null);
    }

    /** A copy waiting for {@code what} (null: waiting for nothing), running with {@code args} (used by the reducer). */
    public PendingToolCall awaiting(Awaiting what, JsonNode args) {
        return new PendingToolCall(toolUseId, name, args, index, started, result, what);
    }
}
