package dev.threadline.core.internal.store;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
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

    /** The most sessions one {@link dev.threadline.core.store.SessionIndex#expired} call lists. */
    public static final int MAX_EXPIRED = 1000;

    /** Arguments of {@link dev.threadline.core.store.SessionIndex#expired}: a time, and a limit of 1 to {@link #MAX_EXPIRED}. */
    public static void expired(java.time.Instant now, int limit) {
        dev.threadline.core.error.Require.nonNull(now, "now");
        dev.threadline.core.error.Require.argument(limit >= 1 && limit <= MAX_EXPIRED, "limit",
                "must be 1 to " + MAX_EXPIRED + ", was " + limit);
    }

    /** Lease arguments: a non-blank owner and a positive ttl. */
    public static void lease(String owner, java.time.Duration ttl) {
        dev.threadline.core.error.Require.nonBlank(owner, "owner");
        dev.threadline.core.error.Require.nonNull(ttl, "ttl");
        dev.threadline.core.error.Require.argument(!ttl.isNegative() && !ttl.isZero(), "ttl", "must be positive, was " + ttl);
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

    /**
     * A branch point must also not be inside the parent's pruned history (ADR 0045): a branch at the base or
     * after it loads from the parent's base, one before it would share history that is gone. Checked in the
     * create's own transaction (or script), so a prune that committed after the runtime checked its fork
     * point cannot leave a branch that cannot load.
     *
     * @param parentBase the seq the parent is pruned through, 0 when it is not
     */
    public static void branchPoint(SessionInfo info, long parentHead, long parentBase) {
        branchPoint(info, parentHead);
        if (info.parentSeq() < parentBase) {
            throw new InvalidInputException("parentSeq", "session '" + info.parentId() + "' is pruned through seq "
                    + parentBase + ": a branch at seq " + info.parentSeq() + " would share history that is gone");
        }
    }

    /**
     * The command record of a create (if any): on the new session it names the first event's seq; for
     * a branch it may instead be on the parent (the session forked from), naming the branch point.
     */
    public static void createCommand(SessionInfo info, CommandRecord command) {
        if (command == null) {
            return;
        }
        SessionKey own = SessionKey.of(info);
        boolean onParent = info.parentId() != null && command.session().equals(own.sibling(info.parentId()));
        if (!command.session().equals(own) && !onParent) {
            throw new InvalidInputException("command.session", "the create of " + own + " records its command on itself"
                    + (info.parentId() == null ? "" : " or on its parent " + own.sibling(info.parentId()))
                    + ", not on " + command.session());
        }
        long seq = onParent ? info.parentSeq() : info.parentSeq() + 1;
        if (command.seq() != seq) {
            throw new InvalidInputException("command.seq", "the command record of the create of " + own + " on "
                    + command.session() + " names seq " + seq + ", not " + command.seq());
        }
    }

    /**
     * The tag a listing cursor carries so that a cursor is only accepted by the query it came from (the
     * same tenant, user and metadata filter; the limit may change between pages). Stable across
     * processes and versions: a hex CRC-32 of the query's filter.
     */
    public static String queryTag(SessionQuery query) {
        StringBuilder filter = new StringBuilder(query.tenant()).append('\0').append(query.userId()).append('\0');
        new java.util.TreeMap<>(query.metadata()).forEach((k, v) -> filter.append(k).append('=').append(v).append('\0'));
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(filter.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return String.format("%08x", crc.getValue());
    }

    /**
     * Refuses a prune of the session {@code info} (head {@code head}, current base through {@code currentBase}, 0 for
     * none) to {@code baseSeq}, when {@code branchPoints} (its branches' ids and branch points) holds one before it.
     *
     * @throws dev.threadline.core.error.InvalidInputException naming what is wrong; the caller changes nothing
     */
    public static void prune(SessionInfo info, long head, long currentBase, long baseSeq, java.util.Map<String, Long> branchPoints) {
        String id = info.id();
        if (baseSeq >= head) {
            throw new dev.threadline.core.error.InvalidInputException("base", "seq " + baseSeq + " is not before the head " + head
                    + " of session '" + id + "' (the head's event always stays)");
        }
        if (baseSeq <= currentBase) {
            throw new dev.threadline.core.error.InvalidInputException("base", "session '" + id + "' is pruned through seq "
                    + currentBase + " already; a new base must come after it, not at seq " + baseSeq);
        }
        if (info.parentId() != null && baseSeq <= info.parentSeq()) {
            throw new dev.threadline.core.error.InvalidInputException("base", "branch '" + id + "' has no events of its own at or"
                    + " before seq " + info.parentSeq() + " (its branch point); a base must come after it, not at seq " + baseSeq);
        }
        for (java.util.Map.Entry<String, Long> b : branchPoints.entrySet()) {
            if (b.getValue() < baseSeq) {
                throw new dev.threadline.core.error.InvalidInputException("base", "branch '" + b.getKey() + "' of session '" + id
                        + "' starts at seq " + b.getValue() + " and needs the history before it; prune through seq "
                        + b.getValue() + " at most");
            }
        }
    }

    /**
     * The arguments of {@link dev.threadline.core.store.HistoryPruning#createFromBase}: a base past the branch point,
     * events from right after it, and a command record (if any) on the session itself at its first event.
     */
    public static void fromBase(SessionInfo info, dev.threadline.core.store.HistoryBase base, List<StoredEvent> events,
                                dev.threadline.core.store.CommandRecord command) {
        Require.nonNull(info, "info");
        Require.nonNull(base, "base");
        if (base.seq() <= info.parentSeq()) {
            throw new InvalidInputException("base", "session '" + info.id() + "' branches at seq " + info.parentSeq()
                    + ": its base must be past it, not at seq " + base.seq());
        }
        batch(info.id(), base.seq(), events);
        if (command != null && (!command.session().equals(SessionKey.of(info)) || command.seq() != base.seq() + 1)) {
            throw new InvalidInputException("command", "the create from a base of session '" + info.id()
                    + "' records its command on itself at seq " + (base.seq() + 1) + ", not on " + command.session()
                    + " at seq " + command.seq());
        }
    }
}
