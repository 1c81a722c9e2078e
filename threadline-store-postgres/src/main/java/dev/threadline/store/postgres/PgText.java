package dev.threadline.store.postgres;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.TextRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's full-text index of the journal (migration 8, issue 38): {@code journal_text} keeps each
 * message's text and its words (core's tokenising, so every backend splits words alike) as a
 * {@code tsvector} of configuration {@code simple} (no stemming, no stop words) under a GIN index. An
 * ordinary step writes its rows in the step's own statement ({@link StepStatement}); a create, a large
 * step and the upgrade in their transactions; a delete removes them with the session. Ranked by
 * {@code ts_rank} (frequency over length, no inverse document frequency: only the order is comparable
 * with the other backends'). Stateless.
 */
final class PgText implements TextRows.TextDialect {
    static final PgText INSTANCE = new PgText();

    private PgText() {}

    @Override
    public String insertSql() {
        return "INSERT INTO journal_text (sid, seq, role, time, text, tsv) SELECT sid, ?, ?, ?, ?, to_tsvector('simple', ?)"
                + " FROM sessions WHERE tenant = ? AND id = ?";
    }

    @Override
    public String searchSql(int ranges) {
        return "SELECT s.id, t.seq, t.role, t.time, t.text, ts_rank(t.tsv, q, 1) AS score"
                + " FROM to_tsquery('simple', ?) q, journal_text t JOIN sessions s ON s.sid = t.sid"
                + " WHERE t.tsv @@ q AND s.tenant = ? AND " + TextRows.rangesSql(ranges)
                + " ORDER BY score DESC, t.seq LIMIT ?";
    }

    @Override
    public String match(Set<String> terms) {
        return String.join(" | ", terms);
    }

    /** Indexes every session's messages already journalled (migration 8), inside the caller's transaction. */
    static void indexExisting(Connection c) throws SQLException {
        List<SessionKey> keys = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT tenant, id FROM sessions"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                keys.add(new SessionKey(rs.getString(1), rs.getString(2)));
            }
        }
        for (SessionKey key : keys) {
            List<StoredEvent> events = EventRows.select(c, key, 1, Long.MAX_VALUE, false, null); // no sealed column yet
            TextRows.insert(c, INSTANCE, key, TextRows.docs(events));
        }
    }
}
