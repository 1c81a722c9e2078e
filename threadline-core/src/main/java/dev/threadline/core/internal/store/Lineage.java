package dev.threadline.core.internal.store;

import dev.threadline.core.store.Journal;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.Snapshots;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a session's whole journal across its ancestry: a branch shares its parent's events up to the
 * branch point and stores only its own after it. Written once here so that backends only deal with
 * their own rows. Every read checks that the range it returns has no gap, so a missing row is one
 * clear error naming the session and seq wherever the journal is read. Stateless and thread-safe.
 */
public final class Lineage {
    private Lineage() {}

    /**
     * Events {@code fromSeq..toSeq} (inclusive) of the session's journal, ancestors' prefix included.
     *
     * @throws StorageException         naming the session and seq when a row in the range is missing or corrupt
     * @throws SessionNotFoundException when the session (or an ancestor) does not exist
     */
    public static List<StoredEvent> read(Journal store, SessionIndex index, SessionKey key, long fromSeq, long toSeq) {
        List<StoredEvent> out = walk(index, key, fromSeq, toSeq, store::readOwn);
        long expected = Math.max(1, fromSeq);
        for (StoredEvent e : out) {
            if (e.seq() != expected) {
                throw gap(key, expected, e.seq());
            }
            expected++;
        }
        if (toSeq >= fromSeq && expected <= toSeq) {
            throw gap(key, expected, -1);
        }
        return out;
    }

    /** {@link #read} on a store that plays both roles. */
    public static List<StoredEvent> read(StateStore store, SessionKey key, long fromSeq, long toSeq) {
        return read(store, store, key, fromSeq, toSeq);
    }

    /** Like {@link #read} but only the events that shape the transcript (gaps cannot be told apart here). */
    public static List<StoredEvent> readTranscript(StateStore store, SessionKey key, long fromSeq, long toSeq) {
        return walk(store, key, fromSeq, toSeq, store::readOwnTranscript);
    }

    /**
     * The events of {@link #readTranscript} without their envelopes (through
     * {@link dev.threadline.core.store.Journal#readOwnTranscriptEvents}, which a store may serve from
     * sealed segments): what a load folds before its snapshot.
     */
    public static List<Event> readTranscriptEvents(Journal journal, SessionIndex index, SessionKey key, long fromSeq, long toSeq) {
        return walk(index, key, fromSeq, toSeq, journal::readOwnTranscriptEvents);
    }

    /** {@link #readTranscriptEvents(Journal, SessionIndex, SessionKey, long, long)} on a store that plays both roles. */
    public static List<Event> readTranscriptEvents(StateStore store, SessionKey key, long fromSeq, long toSeq) {
        return readTranscriptEvents(store, store, key, fromSeq, toSeq);
    }

    /** {@link #latestSnapshot(Snapshots, SessionIndex, SessionKey, long)} on a store that plays both roles. */
    public static Optional<StateSnapshot> latestSnapshot(StateStore store, SessionKey key, long maxSeq) {
        return latestSnapshot(store, store, key, maxSeq);
    }

    /** The newest snapshot at or before {@code maxSeq}, taken in this session or an ancestor before the branch point. */
    public static Optional<StateSnapshot> latestSnapshot(Snapshots snapshots, SessionIndex index, SessionKey key, long maxSeq) {
        SessionKey k = key;
        long max = maxSeq;
        while (k != null) {
            Optional<StateSnapshot> own = snapshots.latestSnapshot(k, max);
            SessionInfo info = info(index, k, key);
            if (own.isPresent() && (info.parentId() == null || own.get().seq() > info.parentSeq())) {
                return own;
            }
            k = info.parentId() == null ? null : k.sibling(info.parentId());
            max = Math.min(max, info.parentSeq());
        }
        return Optional.empty();
    }

    /**
     * The ranges of own rows that make up the session's journal through {@code toSeq}: its own after
     * the branch point, then each ancestor's up to the next branch point (what a
     * {@link dev.threadline.core.store.TextSearch} looks in, so a branch never finds a sibling's turns).
     *
     * @throws SessionNotFoundException when the session (or an ancestor) does not exist
     */
    public static List<SearchRange> searchRanges(SessionIndex index, SessionKey key, long toSeq) {
        List<SearchRange> out = new ArrayList<>();
        SessionKey k = key;
        long to = toSeq;
        while (k != null && to >= 1) {
            SessionInfo info = info(index, k, key);
            long from = info.parentId() == null ? 1 : info.parentSeq() + 1;
            if (to >= from) {
                out.add(new SearchRange(k, from, to));
            }
            to = Math.min(to, from - 1);
            k = info.parentId() == null ? null : k.sibling(info.parentId());
        }
        return out;
    }

    /** One of the journal's reads of a session's own range. */
    private interface OwnRead<T> {
        List<T> read(SessionKey key, long from, long to);
    }

    /** {@code own} over the session's range, its ancestors' prefix first (each up to its branch point). */
    private static <T> List<T> walk(SessionIndex index, SessionKey key, long fromSeq, long toSeq, OwnRead<T> own) {
        if (toSeq < fromSeq) {
            return List.of();
        }
        SessionInfo info = info(index, key, key);
        if (info.parentId() == null || fromSeq > info.parentSeq()) {
            return own.read(key, fromSeq, toSeq);
        }
        List<T> out = new ArrayList<>(walk(index, key.sibling(info.parentId()), fromSeq, Math.min(toSeq, info.parentSeq()), own));
        if (toSeq > info.parentSeq()) {
            out.addAll(own.read(key, info.parentSeq() + 1, toSeq));
        }
        return out;
    }

    private static SessionInfo info(SessionIndex index, SessionKey k, SessionKey asked) {
        return index.session(k).orElseThrow(() -> new SessionNotFoundException(asked.id()));
    }

    private static StorageException gap(SessionKey key, long missing, long found) {
        return new StorageException("session '" + key.id() + "' seq " + missing + ": journal row is missing"
                + (found < 0 ? " (the journal ends before its head)" : " (the next row is seq " + found + ")"));
    }
}
