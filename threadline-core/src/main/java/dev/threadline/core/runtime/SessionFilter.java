package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import dev.threadline.core.store.SessionQuery;
import java.util.Map;

/**
 * Which of a tenant's sessions to list, and which page. Immutable.
 *
 * @param userId   only this user's sessions, or null for all
 * @param metadata only sessions whose metadata holds every pair
 * @param limit    at most this many (1-1000)
 * @param cursor   a page's {@code nextCursor}, or null for the first page
 */
public record SessionFilter(String userId, Map<String, String> metadata, int limit, String cursor) {
    /** The first page of up to 100 sessions, unfiltered. */
    public static final SessionFilter FIRST_PAGE = new SessionFilter(null, null, 100, null);

    /** @throws dev.threadline.core.error.InvalidInputException when the limit is outside 1..1000 */
    public SessionFilter {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        Require.argument(limit >= 1 && limit <= SessionQuery.MAX_LIMIT, "limit",
                "must be between 1 and " + SessionQuery.MAX_LIMIT + ", was " + limit);
    }

    /** The same filter at another page. */
    public SessionFilter at(String nextCursor) {
        return new SessionFilter(userId, metadata, limit, nextCursor);
    }
}
