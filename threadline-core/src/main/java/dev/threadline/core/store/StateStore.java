package dev.threadline.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The storage SPI under {@code StateManager}. A store keeps, per session, an append-only journal of
 * {@link StoredEvent}s numbered from 1 without gaps, small snapshots, the sessions index, and the
 * shared user/app variables. Every method is atomic: it either fully happens or changes nothing.
 *
 * <p>A branch (fork or rewind) stores only its own events; the events it shares with its parent are
 * read from the parent ({@link Lineage} does that walk, so a backend deals only with its own rows).
 *
 * <p>Implementations are thread-safe. Durable ones make an append durable before it returns.
 * Every implementation runs the conformance suite in {@code threadline-store-tck}.
 */
public interface StateStore extends AutoCloseable {

    /**
     * Creates a session with its first events. For a branch, {@code info.parentSeq()} must not be
     * past the parent's head and the first event's seq is {@code parentSeq + 1}.
     *
     * @throws SessionExistsException   when the id is taken
     * @throws SessionNotFoundException when a branch's parent does not exist
     */
    void create(SessionInfo info, List<StoredEvent> firstEvents);

    /**
     * Appends events if, and only if, the journal head is {@code expectedSeq}; the events must be
     * numbered {@code expectedSeq + 1 ...} in order. Scoped variable writes are applied in the same
     * transaction.
     *
     * @return the new head seq
     * @throws VersionConflictException when the head is not {@code expectedSeq} (nothing is written)
     * @throws SessionNotFoundException when the session does not exist
     */
    long append(String sessionId, long expectedSeq, List<StoredEvent> events, List<ScopedWrite> writes);

    /** The head seq of the session's journal (including the prefix shared with a parent). */
    long head(String sessionId);

    /**
     * The events stored under this session id with {@code fromSeq <= seq <= toSeq}, in order. For a
     * branch these start after its branch point.
     */
    List<StoredEvent> readOwn(String sessionId, long fromSeq, long toSeq);

    /** Like {@link #readOwn} but only the events that shape the transcript (see {@code Event.touchesTranscript}). */
    default List<StoredEvent> readOwnTranscript(String sessionId, long fromSeq, long toSeq) {
        return readOwn(sessionId, fromSeq, toSeq).stream().filter(e -> e.event().touchesTranscript()).toList();
    }

    Optional<SessionInfo> session(String sessionId);

    /** Sessions of a tenant, most recently updated first. */
    List<SessionSummary> list(SessionQuery query);

    /** Ids of the sessions that branched directly from this one. */
    List<String> branches(String sessionId);

    /** Stores a snapshot of the session as of {@code snapshot.seq()}. A snapshot is a cache: losing one costs only replay. */
    void saveSnapshot(String sessionId, StateSnapshot snapshot);

    /** The newest snapshot stored under this session id with {@code seq <= maxSeq}. */
    Optional<StateSnapshot> latestSnapshot(String sessionId, long maxSeq);

    /** The shared variables of a scope ({@link VariableScope#USER} or {@link VariableScope#APP}) and key. */
    Map<String, JsonNode> variables(VariableScope scope, String key);

    /**
     * Deletes a session: its index entry, its own events and snapshots.
     *
     * @throws dev.threadline.core.InvalidInputException when branches still depend on it
     * @throws SessionNotFoundException when it does not exist
     */
    void delete(String sessionId);

    /** What this backend guarantees once a call returns, in one line (shown by the CLI and docs). */
    String durability();

    @Override
    void close();
}
