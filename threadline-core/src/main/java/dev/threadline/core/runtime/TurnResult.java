package dev.threadline.core.runtime;

import dev.threadline.core.model.Usage;

/**
 * How a turn ended, or stopped to wait for a person: the outcome, the assistant's final text, the journal position after it, and what
 * it cost (model calls, tool calls, tokens of this turn, compaction summaries included).
 */
public record TurnResult(String sessionId, Outcome outcome, String reply, String reason, long seq, int modelCalls,
                         int toolCalls, Usage usage) {

    /** Why the turn ended. Every outcome but {@link #INTERRUPTED} is recorded as {@code TurnCompleted(reason)}. */
    public enum Outcome {
        /** The model ended its turn (end_turn or stop_sequence: see {@code reason}). */
        COMPLETED,
        /** The per-turn limit of model calls was reached. */
        MAX_ITERATIONS,
        /** The reply hit the output limit and was cut off; tool calls in it were not run. */
        MAX_TOKENS,
        /** The model refused to continue; tool calls in its reply were not run. */
        REFUSED,
        /** The turn spent its token budget ({@code SessionConfig.turnTokenBudget}). */
        TOKEN_BUDGET,
        /** The request could not fit the model's window, so it was not sent. */
        CONTEXT_OVERFLOW,
        /** Interrupted by a caller, or the model failed; see {@code reason}. */
        INTERRUPTED,
        /**
         * Suspended, durably, until a person approves or denies the calls that wait
         * ({@code Session.pendingApprovals()}); recorded as {@code TurnSuspended}, not as an end.
         */
        AWAITING_APPROVAL,
        /** Suspended until the user answers the model's question ({@code Session.answer}). */
        AWAITING_INPUT,
        /**
         * Suspended, durably, because the session reached its budget ({@code SessionConfig.budget}); raising it
         * ({@code Session.setBudget}) continues the turn, from any process.
         */
        BUDGET_EXCEEDED
    }
}
