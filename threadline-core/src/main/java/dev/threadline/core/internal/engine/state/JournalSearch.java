package dev.threadline.core.internal.engine.state;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.store.SearchText;
import java.util.List;

/**
 * {@code History.search} over a journal already read: {@link SearchText#rank} (BM25 in process).
 * The engine's searches go through the store's {@link dev.threadline.core.store.TextSearch} role
 * ({@link JournalReader#search}); this stays for what has the events in hand. Stateless.
 */
public final class JournalSearch {
    private JournalSearch() {}

    /** The hits of {@code query} among {@code journal}'s messages, best first (see {@code History.search}). */
    public static List<SearchHit> search(List<StoredEvent> journal, String query, int limit) {
        return SearchText.rank(journal, query, limit);
    }
}
