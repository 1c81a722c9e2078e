package dev.threadline.core.store;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import java.util.List;
import java.util.Optional;

/**
 * The store's role of pruning a session's history (issue 24, ADR 0045): replacing the prefix of its own
 * journal by a {@link HistoryBase}. A backend that does it says so with {@link #prunesHistory()}; the
 * defaults keep no base and refuse to prune, naming the backend. Implementations are thread-safe.
 */
public interface HistoryPruning {

    /** Whether this backend prunes history; when false {@link #prune} refuses. */
    default boolean prunesHistory() {
        return false;
    }

    /**
     * In one transaction: keeps {@code base} as the session's base (replacing an older one) and removes
     * the session's own events, snapshots, sealed segments and text-index entries at or before
     * {@code base.seq()}. A row sealed in a segment that reaches past the base is kept whole.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     * @throws InvalidInputException when the backend does not prune; when {@code base.seq()} is not before the head (its event always stays), not
     *         past the session's current base, or (for a branch) not past its branch point; or when a branch of the
     *         session branched before {@code base.seq()} (naming it). Nothing is changed then.
     */
    default void prune(SessionKey key, HistoryBase base) {
        throw new InvalidInputException("store", "this " + getClass().getSimpleName() + " cannot prune history;"
                + " memory:, sqlite:, postgresql: and redis: stores can (nothing was changed)");
    }

    /**
     * The session's own base, or empty when its history was never pruned (always, on a backend that does not prune).
     *
     * @throws dev.threadline.core.error.StorageException when the store cannot be read or the base is corrupt
     */
    default Optional<HistoryBase> historyBase(SessionKey key) {
        return Optional.empty();
    }

    /**
     * Creates, in one transaction, a session whose history starts from {@code base}, as a session pruned through
     * {@code base.seq()} is (issue 24: copying a pruned session to another store): {@code base} as its base, then its
     * first own events after it (seq {@code base.seq() + 1} on), with {@code command} (a record on the session
     * itself naming seq {@code base.seq() + 1}) if not null. A branch's base is past its branch point. A store that
     * seals its payloads seals the base and events as its {@link #prune} and create do.
     *
     * @throws dev.threadline.core.error.SessionExistsException when the session exists (nothing is changed)
     * @throws dev.threadline.core.error.SessionNotFoundException when the session's parent does not exist
     * @throws InvalidInputException when the backend cannot, when the events are empty or do not start right after
     *         the base, when the base is not past the branch point, or the command is not of the first event; nothing
     *         is written then
     */
    default void createFromBase(SessionInfo info, HistoryBase base, List<StoredEvent> firstEvents, CommandRecord command) {
        throw new InvalidInputException("store", "this " + getClass().getSimpleName() + " cannot create a session from a history base;"
                + " memory:, sqlite:, postgresql: and redis: stores can (nothing was written)");
    }
}
