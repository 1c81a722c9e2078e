package dev.threadline.core.internal.engine.state;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.HistoryPruning;
import dev.threadline.core.store.JournalTail;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.Snapshots;
import dev.threadline.core.store.SearchText;
import dev.threadline.core.store.TextSearch;
import dev.threadline.core.model.SearchHit;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The read side of sessions' journals, over the store's roles it reads: the {@link JournalTail} for
 * events and heads, the {@link SessionIndex} for descriptions and ancestry, {@link Snapshots} for the
 * newest snapshot. A branch is read across its ancestry (its parent's shared prefix first). Every read
 * is pure. Thread-safe.
 */
public final class JournalReader {
    private final JournalTail journal;
    private final SessionIndex index;
    private final Snapshots snapshots;
    private final TextSearch text;
    private final HistoryPruning pruning;

    /** Reads through these roles; {@code pruning} gives the bases of pruned sessions (ADR 0045). */
    public JournalReader(JournalTail journal, SessionIndex index, Snapshots snapshots, TextSearch text, HistoryPruning pruning) {
        this.text = text;
        this.pruning = pruning;
        this.journal = journal;
        this.index = index;
        this.snapshots = snapshots;
    }

    /**
     * The session's description.
     *
     * @throws SessionNotFoundException when the tenant has no session with that id
     */
    public SessionInfo info(SessionKey key) {
        return index.session(key).orElseThrow(() -> new SessionNotFoundException(key.id()));
    }

    /** Whether the session exists. */
    public boolean exists(SessionKey key) {
        return index.session(key).isPresent();
    }

    /** The head seq of the session's journal. */
    public long head(SessionKey key) {
        return journal.head(key);
    }

    /**
     * Events {@code fromSeq..toSeq} of the session's journal, its ancestors' prefix included (no gaps).
     *
     * @throws dev.threadline.core.error.HistoryPrunedException when the range starts at or before the seq the
     *         session's history was pruned through
     */
    public List<StoredEvent> read(SessionKey key, long fromSeq, long toSeq) {
        try {
            return Lineage.read(journal, index, key, fromSeq, toSeq);
        } catch (StorageException gap) {
            // rows a prune removed are a gap: only then is the base read, so a read of the kept history costs nothing more
            Optional<HistoryBase> base = base(key);
            if (base.isPresent() && fromSeq <= base.get().seq()) {
                throw base.get().pruned(key.id(), Math.max(1, fromSeq));
            }
            throw gap;
        }
    }

    /**
     * The base the session's journal starts from, when it (or, before its branch point, an ancestor) was
     * pruned: a load starts from it. Empty when nothing was pruned, or the store does not prune.
     */
    public Optional<HistoryBase> base(SessionKey key) {
        if (!pruning.prunesHistory()) {
            return Optional.empty();
        }
        SessionKey k = key;
        while (true) {
            Optional<HistoryBase> own = pruning.historyBase(k);
            if (own.isPresent()) {
                return own;
            }
            SessionInfo info = info(k);
            if (info.parentId() == null) {
                return Optional.empty();
            }
            k = k.sibling(info.parentId());
        }
    }

    /** The first seq whose events the session still keeps: 1, or one past its base. */
    public long firstSeq(SessionKey key) {
        return base(key).map(b -> b.seq() + 1).orElse(1L);
    }

    /**
     * The hits of {@code query} in the session's journal through {@code toSeq} (its ancestors' prefix
     * included), best first, from the store's {@link TextSearch}: its index, or BM25 in process.
     */
    public List<SearchHit> search(SessionKey key, long toSeq, String query, int limit) {
        SearchText.terms(query, limit); // a bad query is refused before anything is read
        return text.search(Lineage.searchRanges(index, key, toSeq), query, limit);
    }

    /**
     * The seq before the last event of the session matching {@code what}, looked for backwards from
     * the head a page at a time; the head when none matches.
     */
    public long before(SessionKey key, java.util.function.Predicate<Event> what) {
        long head = head(key);
        long first = firstSeq(key);
        for (long to = head; to >= first; to -= 256) {
            List<StoredEvent> page = read(key, Math.max(first, to - 255), to);
            for (int i = page.size() - 1; i >= 0; i--) {
                if (what.test(page.get(i).event())) {
                    return page.get(i).seq() - 1;
                }
            }
        }
        return head;
    }

    /** The transcript-shaping events {@code fromSeq..toSeq}, without envelopes: what a load folds before its snapshot. */
    public List<Event> transcriptEvents(SessionKey key, long fromSeq, long toSeq) {
        return Lineage.readTranscriptEvents(journal, index, key, fromSeq, toSeq);
    }

    /** The newest snapshot at or before {@code maxSeq}, in this session or an ancestor before the branch point. */
    public Optional<StateSnapshot> latestSnapshot(SessionKey key, long maxSeq) {
        return Lineage.latestSnapshot(snapshots, index, key, maxSeq);
    }

    /**
     * Waits up to {@code timeout} for the head to move past {@code afterSeq}; returns the head.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public long awaitHead(SessionKey key, long afterSeq, Duration timeout) throws InterruptedException {
        return journal.awaitHead(key, afterSeq, timeout);
    }
}
