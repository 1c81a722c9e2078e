package dev.threadline.core.runtime;

import dev.threadline.core.model.Usage;

/**
 * How a turn ended: the outcome, the assistant's final text, the journal position after it, and what
 * it cost (model calls, tool calls, tokens of this turn).
 */
public record TurnResult(String sessionId, Outcome outcome, String reply, String reason, long seq, int modelCalls,
                         int toolCalls, Usage usage) {

    /** Why the turn ended. */
    public enum Outcome {
        /** The model ended its turn (end_turn, stop_sequence, max_tokens or refusal: see {@code reason}). */
        COMPLETED,
        /** The per-turn limit of model calls was reached. */
        MAX_ITERATIONS,
        /** Interrupted by a caller, or the model failed; see {@code reason}. */
        INTERRUPTED
    }
}
