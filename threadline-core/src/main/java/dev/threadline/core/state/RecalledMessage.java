package dev.threadline.core.state;

import dev.threadline.core.error.Require;

/**
 * One earlier message a session's recall brought back into the model's view (ADR 0042): the message
 * at transcript index {@code message}, found at journal position {@code seq}. A tool call comes with
 * its results: an assistant message with tool_use blocks is recalled with the tool message after it, a
 * tool message with the assistant message before it ({@code ContextRecall.unit}). Immutable.
 *
 * @param seq     the seq of the event that holds the message (what search hits name: read, fork or rewind there)
 * @param message the message's index in the transcript ({@link State#messages()})
 */
public record RecalledMessage(long seq, int message) {
    /** @throws dev.threadline.core.error.InvalidInputException when the seq is below 1 or the index negative */
    public RecalledMessage {
        Require.argument(seq >= 1, "seq", "must be at least 1, was " + seq);
        Require.argument(message >= 0, "message", "must not be negative, was " + message);
    }
}
