package dev.threadline.core.internal.store;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.InvalidInputException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import java.util.List;

/** The argument checks every backend makes before it writes, so all refuse bad input alike. Stateless. */
public final class StoreChecks {
    private StoreChecks() {}

    /** Events must be non-empty, belong to the session and be numbered {@code base+1, base+2, ...}. */
    public static void batch(String sessionId, long base, List<StoredEvent> events) {
        // sessionId is the key's id: events carry the id only (a session's events are all in its tenant)
        if (events == null || events.isEmpty()) {
            throw new InvalidInputException("events", "an append needs at least one event");
        }
        long expected = base + 1;
        for (StoredEvent e : events) {
            if (!e.sessionId().equals(sessionId)) {
                throw new InvalidInputException("events", "event seq " + e.seq() + " belongs to session '"
                        + e.sessionId() + "', not '" + sessionId + "'");
            }
            if (e.seq() != expected) {
                throw new InvalidInputException("events", "expected seq " + expected + " but got " + e.seq()
                        + " (a journal has no gaps and no duplicates)");
            }
            expected++;
        }
    }

    /** Lease arguments: a non-blank owner and a positive ttl. */
    public static void lease(String owner, java.time.Duration ttl) {
        dev.threadline.core.Require.nonBlank(owner, "owner");
        dev.threadline.core.Require.nonNull(ttl, "ttl");
        dev.threadline.core.Require.argument(!ttl.isNegative() && !ttl.isZero(), "ttl", "must be positive, was " + ttl);
    }

    /** The command record of {@code request} (if any) must name its first event's seq. */
    public static void command(AppendRequest request) {
        CommandRecord c = request.command();
        if (c != null && c.seq() != request.expectedSeq() + 1) {
            throw new InvalidInputException("command.seq", "a command record appended after seq " + request.expectedSeq()
                    + " starts at seq " + (request.expectedSeq() + 1) + ", not " + c.seq());
        }
    }

    /** A branch point must be an existing position of the parent's journal. */
    public static void branchPoint(SessionInfo info, long parentHead) {
        if (info.parentSeq() > parentHead) {
            throw new InvalidInputException("parentSeq", "session '" + info.parentId() + "' has no seq "
                    + info.parentSeq() + " (its head is " + parentHead + ")");
        }
    }
}
