package dev.threadline.core.store;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The store's role as the index of sessions: create, describe, list by page, find branches, find the
 * expired ones, delete.
 * Implementations are thread-safe; each method is atomic.
 */
public interface SessionIndex {

    /**
     * Creates a session with its first events. For a branch, {@code info.parentSeq()} must not be past
     * the parent's head (the parent is in the same tenant) and the first event's seq is
     * {@code parentSeq + 1}. When {@code command} is not null it is recorded in the same transaction
     * under {@code command.session()} (the new session, or for a fork the session forked from); if a
     * record with that command id already exists there, nothing at all is written.
     *
     * @throws dev.threadline.core.error.SessionExistsException    when the tenant already has a session with this id
     * @throws dev.threadline.core.error.SessionNotFoundException  when a branch's parent does not exist
     * @throws dev.threadline.core.store.DuplicateCommandException when {@code command}'s id is already recorded there
     * @throws dev.threadline.core.error.InvalidInputException     when the events are not numbered from the branch point
     */
    void create(SessionInfo info, List<StoredEvent> firstEvents, CommandRecord command);

    /** Creates a session with no command record; see {@link #create(SessionInfo, List, CommandRecord)}. */
    default void create(SessionInfo info, List<StoredEvent> firstEvents) {
        create(info, firstEvents, null);
    }

    /** The session's description, or empty when the tenant has no session with this id. */
    Optional<SessionInfo> session(SessionKey key);

    /**
     * One page of a tenant's sessions, most recently updated first (ties by id). A session that changes
     * while a caller pages moves to the front: pages read after that may not show it again.
     */
    Page<SessionSummary> list(SessionQuery query);

    /**
     * Ids of the sessions that branched directly from this one, sorted.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    List<String> branches(SessionKey key);

    /**
     * Up to {@code limit} sessions, of every tenant, whose {@link SessionInfo#expiresAt()} is at or
     * before {@code now}: the oldest expiry first, ties by tenant, then id. A session without an expiry
     * is never listed, nor one that has been deleted. Reads an index by expiry, so the work is bounded
     * by {@code limit}, not by the number of sessions; retention calls it once per pass.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code now} is null or {@code limit} is not 1 to 1000
     */
    List<SessionKey> expired(Instant now, int limit);

    /**
     * Deletes a session: its index entry, its own events, snapshots, command records and lease.
     *
     * @throws dev.threadline.core.error.InvalidInputException    when branches still depend on it
     * @throws dev.threadline.core.error.SessionNotFoundException when it does not exist
     */
    void delete(SessionKey key);
}
