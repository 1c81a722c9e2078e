package dev.threadline.core.internal.state;

import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.Role;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import java.util.List;

/**
 * The reducer's rule for {@code TurnRolledBack}: between turns only, the transcript is cut back to a
 * prefix that ends where a turn began (the next message is a user message), and the session variables,
 * context start and compaction become those recorded in the event. The tool_use ids are derived from
 * the kept transcript again. Pure.
 */
final class Rollbacks {
    private Rollbacks() {}

    /** {@code checked}: the full rules; false when loading a transcript only (it was checked when recorded). */
    static State apply(State s, Event.TurnRolledBack r, boolean checked) {
        if (checked) {
            check(s, r);
        }
        int n = Math.min(r.messageCount(), s.messages().size());
        return new State(s.seq(), s.step(), checked ? SessionStatus.IDLE : s.status(), List.copyOf(s.messages().subList(0, n)),
                checked ? r.variables() : s.variables(), List.of(), s.usage(), r.contextStart(), r.compaction(),
                s.permissionDenials(), s.modelChange(), List.of(), s.budget(), List.of(), null); // model and budget are config, not the turn's content: they stay
    }

    private static void check(State s, Event.TurnRolledBack r) {
        if (!s.isIdle() || !s.pending().isEmpty()) {
            throw new InvalidEventException(r.type(), "the session is " + s.status().wireName() + "; a turn is rolled back"
                    + " once it has ended");
        }
        int size = s.messages().size();
        if (r.messageCount() > size) {
            throw new InvalidEventException(r.type(), "the transcript holds " + size + " messages, not " + r.messageCount());
        }
        if (r.messageCount() < size && s.messages().get(r.messageCount()).role() != Role.USER) {
            throw new InvalidEventException(r.type(), "message " + r.messageCount() + " does not start a turn; a rollback"
                    + " keeps whole turns");
        }
        if (r.contextStart() > r.messageCount() || (r.compaction() != null && r.compaction().boundary() > r.messageCount())) {
            throw new InvalidEventException(r.type(), "the context start or compaction boundary lies beyond the kept "
                    + r.messageCount() + " messages");
        }
    }
}
