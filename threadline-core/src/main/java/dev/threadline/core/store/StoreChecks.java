package dev.threadline.core.store;

import dev.threadline.core.InvalidInputException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import java.util.List;

/** The argument checks every backend makes before it writes, so all refuse bad batches alike. */
public final class StoreChecks {
    private StoreChecks() {}

    /** Events must be non-empty, belong to the session and be numbered {@code base+1, base+2, ...}. */
    public static void batch(String sessionId, long base, List<StoredEvent> events) {
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

    /** A branch point must be an existing position of the parent's journal. */
    public static void branchPoint(SessionInfo info, long parentHead) {
        if (info.parentSeq() > parentHead) {
            throw new InvalidInputException("parentSeq", "session '" + info.parentId() + "' has no seq "
                    + info.parentSeq() + " (its head is " + parentHead + ")");
        }
    }
}
