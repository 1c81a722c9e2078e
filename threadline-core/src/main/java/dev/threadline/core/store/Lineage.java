package dev.threadline.core.store;

import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Reads a session's whole journal across its ancestry: a branch shares its parent's events up to the
 * branch point and stores only its own after it. Written once here so that backends only deal with
 * their own rows.
 */
public final class Lineage {
    private Lineage() {}

    /** Events {@code fromSeq..toSeq} (inclusive) of the session's journal, ancestors' prefix included. */
    public static List<StoredEvent> read(StateStore store, String sessionId, long fromSeq, long toSeq) {
        return walk(store, sessionId, fromSeq, toSeq, (id, range) -> store.readOwn(id, range[0], range[1]));
    }

    /** Like {@link #read} but only the events that shape the transcript. */
    public static List<StoredEvent> readTranscript(StateStore store, String sessionId, long fromSeq, long toSeq) {
        return walk(store, sessionId, fromSeq, toSeq, (id, range) -> store.readOwnTranscript(id, range[0], range[1]));
    }

    /** The newest snapshot at or before {@code maxSeq}, taken in this session or an ancestor before the branch point. */
    public static Optional<StateSnapshot> latestSnapshot(StateStore store, String sessionId, long maxSeq) {
        String id = sessionId;
        long max = maxSeq;
        while (id != null) {
            Optional<StateSnapshot> own = store.latestSnapshot(id, max);
            SessionInfo info = store.session(id).orElseThrow(() -> new SessionNotFoundException(sessionId));
            if (own.isPresent() && (info.parentId() == null || own.get().seq() > info.parentSeq())) {
                return own;
            }
            id = info.parentId();
            max = Math.min(max, info.parentSeq());
        }
        return Optional.empty();
    }

    private static List<StoredEvent> walk(StateStore store, String sessionId, long fromSeq, long toSeq,
                                          BiFunction<String, long[], List<StoredEvent>> reader) {
        if (toSeq < fromSeq) {
            return List.of();
        }
        SessionInfo info = store.session(sessionId).orElseThrow(() -> new SessionNotFoundException(sessionId));
        if (info.parentId() == null || fromSeq > info.parentSeq()) {
            return reader.apply(sessionId, new long[] {fromSeq, toSeq});
        }
        List<StoredEvent> out = new ArrayList<>(walk(store, info.parentId(), fromSeq, Math.min(toSeq, info.parentSeq()), reader));
        if (toSeq > info.parentSeq()) {
            out.addAll(reader.apply(sessionId, new long[] {info.parentSeq() + 1, toSeq}));
        }
        return out;
    }
}
