package dev.threadline.harness.history;

import java.util.Objects;

/**
 * One way the final journals contradict the recorded history or the runtime's invariants. Immutable.
 *
 * @param kind        what rule was broken
 * @param session     the session it was found in
 * @param description what exactly, naming seqs, command ids and processes
 */
public record Violation(Kind kind, String session, String description) {

    /** The rules the {@link HistoryChecker} checks. */
    public enum Kind {
        /** An ok submission's user message is not in the journal. */
        LOST,
        /** A command's user message appears more than once. */
        DUPLICATED,
        /** A submission that every attempt reported as failed appears. */
        FAILED_BUT_APPLIED,
        /** A user message that no recorded operation sent. */
        UNSENT,
        /** The journal's seqs are not 1, 2, 3, ... (a gap, a duplicate or a reordering). */
        SEQ,
        /** A turn started while another was still open. */
        INTERLEAVED,
        /** A turn's event (model reply, tool call) outside any turn, e.g. a stale writer's late append. */
        OUTSIDE_TURN,
        /** A turn that started and never ended. */
        UNFINISHED_TURN,
        /** The reducer refuses the journal. */
        REFUSED_BY_REDUCER,
        /** The folded transcript fails the validator. */
        INVALID_TRANSCRIPT,
        /** A branch's history up to its branch point is not its parent's. */
        BRANCH_PREFIX,
        /** Operations name a session no journal was given for. */
        MISSING_JOURNAL
    }

    /** @throws NullPointerException when a field is null */
    public Violation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(description, "description");
    }

    @Override
    public String toString() {
        return kind + " in " + session + ": " + description;
    }
}
