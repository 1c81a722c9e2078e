package dev.threadline.core.internal.engine;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.util.List;
import java.util.Optional;

/**
 * One session as {@link SessionWriter} takes it: its description, head, own events, command records and
 * newest snapshot, from another store ({@link #of}) or from an import file. Read by one thread.
 */
interface SessionSource {

    SessionInfo info();

    /** The journal head (including a branch's shared prefix). */
    long head();

    /** The own events with {@code fromSeq <= seq <= toSeq}, in order. */
    List<StoredEvent> readOwn(long fromSeq, long toSeq);

    /** The record of {@code commandId} kept under {@code on} (this session or, for a fork's create, its parent). */
    Optional<CommandRecord> command(SessionKey on, String commandId);

    /** The newest snapshot to copy along, if any. */
    Optional<StateSnapshot> snapshot();

    /**
     * The session's own history base when its history was pruned (ADR 0045): its own events start right after it,
     * and it goes to the destination first ({@link dev.threadline.core.store.HistoryPruning#createFromBase}).
     */
    default Optional<HistoryBase> base() {
        return Optional.empty();
    }

    /** The seq the session's own events to copy start after: its base's, or its branch point. */
    default long start() {
        return base().map(HistoryBase::seq).orElse(info().parentSeq());
    }

    /** Session {@code info} of {@code store}, read up to its head at this call, with its base if it was pruned. */
    static SessionSource of(StateStore store, SessionInfo info) {
        SessionKey key = SessionKey.of(info);
        long head = store.head(key);
        Optional<HistoryBase> base = store.historyBase(key);
        return new SessionSource() {
            @Override
            public Optional<HistoryBase> base() {
                return base;
            }

            @Override
            public SessionInfo info() {
                return info;
            }

            @Override
            public long head() {
                return head;
            }

            @Override
            public List<StoredEvent> readOwn(long fromSeq, long toSeq) {
                return store.readOwn(key, fromSeq, toSeq);
            }

            @Override
            public Optional<CommandRecord> command(SessionKey on, String commandId) {
                return store.command(on, commandId);
            }

            @Override
            public Optional<StateSnapshot> snapshot() {
                return store.latestSnapshot(key, head);
            }
        };
    }
}
