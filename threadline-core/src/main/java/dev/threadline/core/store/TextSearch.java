package dev.threadline.core.store;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SearchHit;
import java.util.ArrayList;
import java.util.List;

/**
 * The store's role as a full-text index of its journals (issue 38): the messages (user text, assistant
 * text, tool results, as {@link SearchText#document} reads them) of some ranges of sessions' own rows,
 * ranked against a query, best first. The index is derived from the journal: a backend that keeps one
 * writes it in the same transaction as the append and drops a session's entries with the session, so
 * it follows forks and rewinds (the caller passes the lineage's ranges) and deletes (an erasure
 * deletes). The default keeps no index: it reads the ranges and ranks them in process by BM25
 * ({@link SearchText#rank}), linear in the ranges' length; a backend with a database index overrides it.
 * Only the order of hits is comparable between backends, not their scores. Thread-safe.
 */
public interface TextSearch extends Journal {

    /**
     * The hits of {@code query} among the messages of {@code ranges} (all of one tenant), best first,
     * at most {@code limit}; each hit names the session and seq that hold it, its role, time and a
     * snippet ({@link SearchText#snippet}).
     *
     * @throws dev.threadline.core.error.InvalidInputException when the query has no word or is longer
     *         than {@link SearchHit#MAX_QUERY}, or the limit is outside 1 to 100 (before any read)
     * @throws dev.threadline.core.error.SessionNotFoundException when a range's session does not exist
     * @throws dev.threadline.core.error.StorageException when the store cannot be read
     */
    default List<SearchHit> search(List<SearchRange> ranges, String query, int limit) {
        SearchText.terms(query, limit);
        List<StoredEvent> events = new ArrayList<>();
        for (SearchRange r : ranges) {
            if (!r.isEmpty()) {
                events.addAll(readOwn(r.key(), r.fromSeq(), r.toSeq()));
            }
        }
        return SearchText.rank(events, query, limit);
    }
}
