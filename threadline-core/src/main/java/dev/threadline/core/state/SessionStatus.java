package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Execution status of a session: idle between turns, running during one, or suspended in the middle
 * of one while a person decides ({@link #AWAITING_APPROVAL}: a tool call needs a yes or no;
 * {@link #AWAITING_INPUT}: the model asked the user a question; {@link #BUDGET_EXCEEDED}: the session
 * spent its budget). A suspended turn is at rest and
 * durable: no process runs it, any process resumes it with approve, deny or answer. Immutable.
 */
public enum SessionStatus {
    /** Between turns. */
    IDLE,
    /** A turn is running. */
    RUNNING,
    /** A turn is suspended until a tool call is approved or denied. */
    AWAITING_APPROVAL,
    /** A turn is suspended until the user answers the model's question. */
    AWAITING_INPUT,
    /** A turn is suspended because the session reached its budget, until the budget is raised. */
    BUDGET_EXCEEDED;

    /** The stored form: {@code idle}, {@code running}, {@code awaiting_approval}, {@code awaiting_input}, {@code budget_exceeded}. */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether a turn is suspended waiting for a person: a decision, an answer or more budget (no process runs it). */
    public boolean isSuspended() {
        return this == AWAITING_APPROVAL || this == AWAITING_INPUT || this == BUDGET_EXCEEDED;
    }
}
