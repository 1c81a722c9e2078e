package dev.threadline.store.postgres;

import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.internal.store.ListingCursor;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.json.Json;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One page of a tenant's sessions, most recently updated first, ties by id, read through the index
 * {@code sessions_recent (tenant, updated_at, id DESC)} read backwards (or {@code sessions_user_recent}
 * with a user; ascending since migration 4, so the entry every append adds goes to the index's right end):
 * the cursor's {@code updated_at <= ?} is an index condition, so a page starts where the last one
 * ended rather than skipping rows. The metadata filter is {@code metadata @> ?::jsonb} (GIN index
 * {@code sessions_metadata}; the planner picks it when the filter is selective). Stateless.
 */
final class SessionPages {
    private SessionPages() {}

    /** The statement for a query's shape (exposed for the EXPLAIN test). */
    static String sql(boolean user, boolean cursor, boolean metadata) {
        StringBuilder sql = new StringBuilder("SELECT id, info, head_seq, updated_at FROM sessions WHERE tenant = ?");
        if (user) {
            sql.append(" AND user_id = ?");
        }
        if (cursor) {
            sql.append(" AND updated_at <= ? AND (updated_at < ? OR id > ?)");
        }
        if (metadata) {
            sql.append(" AND metadata @> ?::jsonb");
        }
        return sql.append(" ORDER BY updated_at DESC, id LIMIT ?").toString();
    }

    static Page<SessionSummary> list(Connection c, SessionQuery query) throws SQLException {
        String tag = StoreChecks.queryTag(query);
        ListingCursor after = query.cursor() == null ? null : ListingCursor.parse(query.cursor(), tag);
        boolean metadata = !query.metadata().isEmpty();
        try (PreparedStatement ps = c.prepareStatement(sql(query.userId() != null, after != null, metadata))) {
            int i = 1;
            ps.setString(i++, query.tenant());
            if (query.userId() != null) {
                ps.setString(i++, query.userId());
            }
            if (after != null) {
                ps.setLong(i++, after.position());
                ps.setLong(i++, after.position());
                ps.setString(i++, after.id());
            }
            if (metadata) {
                ps.setString(i++, Json.write(query.metadata()));
            }
            ps.setInt(i, query.limit() + 1); // one more than the page: whether a next page exists
            List<SessionSummary> items = new ArrayList<>();
            long lastUpdated = 0;
            boolean more = false;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (items.size() == query.limit()) {
                        more = true;
                        break;
                    }
                    lastUpdated = rs.getLong(4);
                    items.add(new SessionSummary(SessionRows.decode(rs.getString(1), rs.getString(2)), rs.getLong(3),
                            EpochNanos.instant(lastUpdated)));
                }
            }
            String next = more ? new ListingCursor(lastUpdated, items.get(items.size() - 1).info().id()).format(tag) : null;
            return new Page<>(items, next);
        }
    }
}
