package dev.threadline.store.sqlite;

import dev.threadline.core.internal.store.ListingCursor;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.store.jdbc.SessionTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * One page of a tenant's sessions, most recently updated first, ties by id. The query finds the
 * tenant's (or user's) rows through the primary key (tenant, id) or the index (tenant, user_id, id)
 * and sorts them by their last update (read from each one's last event, see {@link SessionRows#UPDATED}): a scan of that tenant's sessions per page, the price of
 * indexes that an append does not rewrite (ADR 0011). A metadata filter matches the pairs inside
 * the {@code info} JSON ({@code json_each} over {@code $.metadata}, so any key works, dots and quotes
 * included) rather than a side table that every create would write. Stateless.
 */
final class SessionPages {
    private SessionPages() {}

    static Page<SessionSummary> list(Connection c, SessionQuery query) throws SQLException {
        String tag = StoreChecks.queryTag(query);
        ListingCursor after = query.cursor() == null ? null : ListingCursor.parse(query.cursor(), tag);
        StringBuilder sql = new StringBuilder("SELECT id, info, head, updated FROM (SELECT s.id AS id, s.info AS info, "
                + SessionRows.HEAD + " AS head, " + SessionRows.UPDATED + " AS updated FROM sessions s WHERE s.tenant = ?");
        if (query.userId() != null) {
            sql.append(" AND s.user_id = ?");
        }
        for (int i = 0; i < query.metadata().size(); i++) {
            sql.append(" AND EXISTS (SELECT 1 FROM json_each(s.info, '$.metadata') WHERE key = ? AND value = ?)");
        }
        sql.append(")");
        if (after != null) {
            sql.append(" WHERE (updated < ? OR (updated = ? AND id > ?))");
        }
        sql.append(" ORDER BY updated DESC, id LIMIT ?");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            ps.setString(i++, query.tenant());
            if (query.userId() != null) {
                ps.setString(i++, query.userId());
            }
            for (Map.Entry<String, String> pair : query.metadata().entrySet()) {
                ps.setString(i++, pair.getKey());
                ps.setString(i++, pair.getValue());
            }
            if (after != null) {
                ps.setLong(i++, after.position());
                ps.setLong(i++, after.position());
                ps.setString(i++, after.id());
            }
            ps.setInt(i, query.limit() + 1); // one more than the page: whether a next page exists
            try (ResultSet rs = ps.executeQuery()) {
                return SessionTable.page(rs, query.limit(), tag);
            }
        }
    }
}
