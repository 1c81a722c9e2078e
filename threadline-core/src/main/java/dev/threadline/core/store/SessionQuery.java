package dev.threadline.core.store;

import dev.threadline.core.error.Require;
import dev.threadline.core.session.SessionInfo;
import java.util.Map;

/**
 * Which sessions to list: one tenant's, optionally one user's, optionally only those whose metadata
 * holds every given pair, at most {@code limit}, from {@code cursor} (a page's
 * {@link Page#nextCursor()}, null for the first page). Immutable.
 */
public record SessionQuery(String tenant, String userId, Map<String, String> metadata, int limit, String cursor) {
    /** The most sessions one page may hold. */
    public static final int MAX_LIMIT = 1000;

    /** @throws dev.threadline.core.error.InvalidInputException when the tenant is invalid or the limit out of 1..1000 */
    public SessionQuery {
        tenant = tenant == null ? SessionInfo.DEFAULT_TENANT : SessionInfo.checkId(tenant, "tenant");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        Require.argument(limit >= 1 && limit <= MAX_LIMIT, "limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }

    /** The first page (up to 1000) of a tenant's sessions. */
    public static SessionQuery tenant(String tenant) {
        return new SessionQuery(tenant, null, null, MAX_LIMIT, null);
    }

    /** The same query at another page. */
    public SessionQuery at(String nextCursor) {
        return new SessionQuery(tenant, userId, metadata, limit, nextCursor);
    }
}
