package dev.threadline.harness.history;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.testkit.Fold;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.util.List;

/**
 * The checks of one journal on its own, whatever the clients did: seqs gapless from 1, turns never
 * interleaved and always ended, the reducer accepts every event and the folded transcript is valid.
 */
final class JournalRules {
    private JournalRules() {}

    /** Seqs are 1, 2, 3, ...: reports each place where the next seq is not the previous one plus one. */
    static void seqs(String session, List<StoredEvent> journal, List<Violation> out) {
        long prev = 0;
        for (StoredEvent e : journal) {
            if (e.seq() != prev + 1) {
                String what = e.seq() <= prev ? "duplicate or out-of-order seq " + e.seq() + " after seq " + prev
                        : "gap: seq " + e.seq() + " follows seq " + prev;
                out.add(new Violation(Violation.Kind.SEQ, session, what));
            }
            prev = e.seq();
        }
    }

    /**
     * A turn runs from a UserMessageReceived to its TurnCompleted or TurnInterrupted: no other user
     * message, and no model reply or tool call outside a turn. Every turn ends, except the journal's
     * last one when {@code lastMayBeOpen}.
     */
    static void turns(String session, List<StoredEvent> journal, boolean lastMayBeOpen, List<Violation> out) {
        StoredEvent open = null;
        for (StoredEvent e : journal) {
            switch (e.event()) {
                case Event.UserMessageReceived u -> {
                    if (open != null) {
                        out.add(new Violation(Violation.Kind.INTERLEAVED, session, "user message at seq " + e.seq()
                                + " (command " + e.commandId() + ") starts a turn while the turn of seq " + open.seq()
                                + " (command " + open.commandId() + ") is still open"));
                    }
                    open = e;
                }
                case Event.TurnCompleted t -> open = closeTurn(session, open, e, out);
                case Event.TurnInterrupted t -> open = closeTurn(session, open, e, out);
                case Event.AssistantMessageReceived a -> requireOpen(session, open, e, out);
                case Event.ToolCallStarted s -> requireOpen(session, open, e, out);
                case Event.ToolCallEnded s -> requireOpen(session, open, e, out);
                default -> { }
            }
        }
        if (open != null && !lastMayBeOpen) {
            out.add(new Violation(Violation.Kind.UNFINISHED_TURN, session, "the turn of seq " + open.seq()
                    + " (command " + open.commandId() + ") never ends"));
        }
    }

    /** The reducer folds the whole journal and the folded transcript passes the CHECKPOINT validator. */
    static void transcript(String session, List<StoredEvent> journal, List<Violation> out) {
        State s = State.EMPTY;
        for (StoredEvent e : journal) {
            try {
                s = Fold.apply(s, e);
            } catch (RuntimeException ex) {
                out.add(new Violation(Violation.Kind.REFUSED_BY_REDUCER, session, e.event().type() + " at seq " + e.seq()
                        + " (command " + e.commandId() + ") is refused: " + ex.getMessage()));
                return;
            }
        }
        for (String v : TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.CHECKPOINT)) {
            out.add(new Violation(Violation.Kind.INVALID_TRANSCRIPT, session, v));
        }
    }

    private static StoredEvent closeTurn(String session, StoredEvent open, StoredEvent end, List<Violation> out) {
        requireOpen(session, open, end, out);
        return null;
    }

    private static void requireOpen(String session, StoredEvent open, StoredEvent e, List<Violation> out) {
        if (open == null) {
            out.add(new Violation(Violation.Kind.OUTSIDE_TURN, session, e.event().type() + " at seq " + e.seq()
                    + " (command " + e.commandId() + ") is outside any turn"));
        }
    }
}
