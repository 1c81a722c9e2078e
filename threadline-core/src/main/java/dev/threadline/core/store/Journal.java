package dev.threadline.core.store;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The store's role as the journal: conditional, fenced appends and range reads of one session's own
 * events. Implementations are thread-safe; a durable one makes an append durable before it returns.
 */
public interface Journal {

    /**
     * Appends the request's events if, and only if, the journal head is {@code expectedSeq} and the
     * session's lease epoch is {@code epoch}; the events must be numbered {@code expectedSeq + 1 ...}.
     * Scoped variable writes and the command record (when present) are applied in the same transaction.
     * When anything is refused, nothing is written.
     *
     * @return the new head seq
     * @throws dev.threadline.core.error.LeaseLostException        when the epoch is stale (another owner took the lease)
     * @throws dev.threadline.core.error.VersionConflictException  when the head is not {@code expectedSeq}
     * @throws dev.threadline.core.store.DuplicateCommandException when the command id is already recorded for the session
     * @throws dev.threadline.core.error.SessionNotFoundException  when the session does not exist
     * @throws dev.threadline.core.error.InvalidInputException     when the events are not numbered from the head
     */
    long append(AppendRequest request);

    /**
     * The head seq of the session's journal (including the prefix shared with a parent).
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    long head(SessionKey key);

    /**
     * The events stored under this session with {@code fromSeq <= seq <= toSeq}, in order. For a branch
     * these start after its branch point (core's lineage reader reads across the ancestry).
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     * @throws dev.threadline.core.error.StorageException         naming session and seq when a row is corrupt
     */
    List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq);

    /** Like {@link #readOwn} but only the events that shape the transcript (see {@code Event.touchesTranscript}). */
    default List<StoredEvent> readOwnTranscript(SessionKey key, long fromSeq, long toSeq) {
        return readOwn(key, fromSeq, toSeq).stream().filter(e -> e.event().touchesTranscript()).toList();
    }

    /**
     * The events of {@link #readOwnTranscript} without their envelopes, in seq order: what a load folds
     * to rebuild the transcript before its snapshot. A store that keeps the transcript of older steps in
     * sealed segments (ADR 0028) reads them here whole, one parse per segment instead of one per row; the
     * default maps {@link #readOwnTranscript}.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     * @throws dev.threadline.core.error.StorageException         naming session and seq when a row or segment is corrupt
     */
    default List<Event> readOwnTranscriptEvents(SessionKey key, long fromSeq, long toSeq) {
        List<StoredEvent> rows = readOwnTranscript(key, fromSeq, toSeq);
        List<Event> out = new ArrayList<>(rows.size());
        for (StoredEvent e : rows) {
            out.add(e.event());
        }
        return out;
    }
}
