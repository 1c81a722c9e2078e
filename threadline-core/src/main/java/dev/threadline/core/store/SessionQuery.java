package dev.threadline.core.store;

import dev.threadline.core.Require;
import dev.threadline.core.model.SessionInfo;

/** Which sessions to list: one tenant's, optionally one user's, at most {@code limit}. */
public record SessionQuery(String tenant, String userId, int limit) {
    public SessionQuery {
        tenant = tenant == null ? SessionInfo.DEFAULT_TENANT : tenant;
        Require.argument(limit >= 1, "limit", "must be at least 1, was " + limit);
    }

    public static SessionQuery tenant(String tenant) {
        return new SessionQuery(tenant, null, 1000);
    }

    public static SessionQuery all() {
        return tenant(SessionInfo.DEFAULT_TENANT);
    }
}
