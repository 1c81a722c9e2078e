package dev.threadline.store.postgres;

import dev.threadline.core.internal.store.ListingCursor;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.json.Json;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.store.jdbc.SessionTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * One page of a tenant's sessions, most recently updated first, ties by id, read through the index
 * {@code heads_recent (tenant, recent)} read backwards (or {@code heads_user_recent} with a user),
 * where {@code recent} is {@code updated_at} in 10-second periods (migration 6, so that a step's
 * update of its heads row stays HOT), each row joined to its session: the index gives the periods in
 * order and an incremental sort orders each period's few rows by {@code updated_at DESC, id}. The
 * cursor's {@code recent <= ?} is an index condition, so a page starts in the period where the last
 * one ended rather than skipping rows. The metadata filter is {@code metadata @> ?::jsonb} (GIN index
 * {@code sessions_metadata}; the planner picks it when the filter is selective). Stateless.
 */
final class SessionPages {
    private SessionPages() {}

    /** The statement for a query's shape (exposed for the EXPLAIN test). */
    static String sql(boolean user, boolean cursor, boolean metadata) {
        StringBuilder sql = new StringBuilder("SELECT s.id, s.info, h.head_seq, h.updated_at FROM heads h"
                + " JOIN sessions s ON s.tenant = h.tenant AND s.id = h.id WHERE h.tenant = ?");
        if (user) {
            sql.append(" AND h.user_id = ?");
        }
        if (cursor) {
            sql.append(" AND h.recent <= ? AND h.updated_at <= ? AND (h.updated_at < ? OR h.id > ?)");
        }
        if (metadata) {
            sql.append(" AND s.metadata @> ?::jsonb");
        }
        return sql.append(" ORDER BY h.recent DESC, h.updated_at DESC, h.id LIMIT ?").toString();
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
                ps.setLong(i++, Migrations.recent(after.position()));
                ps.setLong(i++, after.position());
                ps.setLong(i++, after.position());
                ps.setString(i++, after.id());
            }
            if (metadata) {
                ps.setString(i++, Json.write(query.metadata()));
            }
            ps.setInt(i, query.limit() + 1); // one more than the page: whether a next page exists
            try (ResultSet rs = ps.executeQuery()) {
                return SessionTable.page(rs, query.limit(), tag);
            }
        }
    }
}
