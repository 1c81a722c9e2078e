package dev.threadline.core.internal.engine;

import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.History;
import dev.threadline.core.runtime.PageRequest;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.List;

/** The {@link History} of one session: its key bound to the session reads. Thread-safe. */
final class HistoryView implements History {
    private final SessionReads reads;
    private final SessionKey key;

    HistoryView(SessionReads reads, SessionKey key) {
        this.reads = reads;
        this.key = key;
    }

    @Override
    public List<Checkpoint> checkpoints() {
        return reads.checkpoints(key);
    }

    @Override
    public Page<Checkpoint> checkpoints(PageRequest page) {
        return reads.checkpoints(key, page);
    }

    @Override
    public State stateAt(long seq) {
        return reads.stateAt(key, seq);
    }

    @Override
    public List<StoredEvent> journal() {
        return reads.journal(key);
    }

    @Override
    public List<StoredEvent> events(long afterSeq, int limit) {
        return reads.events(key, afterSeq, limit);
    }

    @Override
    public List<StoredEvent> awaitEvents(long afterSeq, Duration timeout) {
        return reads.awaitEvents(key, afterSeq, timeout);
    }

    @Override
    public List<SideEffect> sideEffectsAfter(long seq) {
        return reads.sideEffectsAfter(key, seq);
    }

    @Override
    public List<SearchHit> search(String query, int limit) {
        return reads.search(key, query, limit);
    }
}
