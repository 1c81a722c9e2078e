package dev.threadline.core.store;

import dev.threadline.core.state.StateSnapshot;
import java.util.Optional;

/**
 * The store's role as the keeper of state snapshots: a cache that bounds replay. Losing one costs
 * only replay time. Implementations are thread-safe.
 */
public interface Snapshots {

    /**
     * Stores a snapshot of the session as of {@code snapshot.seq()}.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    void saveSnapshot(SessionKey key, StateSnapshot snapshot);

    /**
     * The newest readable snapshot stored under this session with {@code seq <= maxSeq}.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq);
}
