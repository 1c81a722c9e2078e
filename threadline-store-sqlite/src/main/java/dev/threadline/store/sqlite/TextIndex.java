package dev.threadline.store.sqlite;

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
import java.util.stream.Collectors;

/**
 * SQLite's full-text index of the journal (schema version 8, issue 38): {@code journal_text} holds each
 * message's text, an external-content FTS5 table {@code journal_fts} (tokenizer {@code unicode61}, no
 * diacritics folded, as core's words) indexes it, kept by triggers on {@code journal_text}; rows are
 * written in the append's savepoint and deleted with the session. Ranked by FTS5's {@code bm25()}.
 * Stateless.
 */
final class TextIndex implements TextRows.TextDialect {
    static final TextIndex INSTANCE = new TextIndex();

    /** The tables, index and triggers of version 8. */
    static final List<String> DDL = List.of("""
            CREATE TABLE journal_text (
              id    INTEGER PRIMARY KEY,
              sid   INTEGER NOT NULL,
              seq   INTEGER NOT NULL,
              role  TEXT NOT NULL,
              time  INTEGER NOT NULL,
              text  TEXT NOT NULL,
              FOREIGN KEY (sid) REFERENCES sessions(sid) ON DELETE CASCADE)""",
            "CREATE UNIQUE INDEX journal_text_by_seq ON journal_text(sid, seq)",
            "CREATE VIRTUAL TABLE journal_fts USING fts5(text, content = 'journal_text', content_rowid = 'id',"
                    + " tokenize = 'unicode61 remove_diacritics 0')",
            "CREATE TRIGGER journal_text_in AFTER INSERT ON journal_text BEGIN"
                    + " INSERT INTO journal_fts (rowid, text) VALUES (new.id, new.text); END",
            "CREATE TRIGGER journal_text_out AFTER DELETE ON journal_text BEGIN"
                    + " INSERT INTO journal_fts (journal_fts, rowid, text) VALUES ('delete', old.id, old.text); END");

    private TextIndex() {}

    @Override
    public String insertSql() {
        // ?5 (the words) is core's tokenising, which FTS5 does itself here
        return "INSERT INTO journal_text (sid, seq, role, time, text) SELECT sid, ?1, ?2, ?3, ?4 FROM sessions"
                + " WHERE ?5 IS NOT NULL AND tenant = ?6 AND id = ?7";
    }

    @Override
    public String searchSql(int ranges) {
        return "SELECT s.id, t.seq, t.role, t.time, t.text, -bm25(journal_fts) AS score"
                + " FROM journal_fts JOIN journal_text t ON t.id = journal_fts.rowid JOIN sessions s ON s.sid = t.sid"
                + " WHERE journal_fts MATCH ? AND s.tenant = ? AND " + TextRows.rangesSql(ranges)
                + " ORDER BY score DESC, t.seq LIMIT ?";
    }

    @Override
    public String match(Set<String> terms) {
        return terms.stream().map(t -> "\"" + t + "\"").collect(Collectors.joining(" OR "));
    }

    /**
     * The upgrade to version 8 indexes what the file already holds: every session's messages, read as
     * the store reads them (sealed segments included), inside the upgrade's transaction.
     */
    static void indexExisting(Connection c) throws SQLException {
        List<SessionKey> keys = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT tenant, id FROM sessions"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                keys.add(new SessionKey(rs.getString(1), rs.getString(2)));
            }
        }
        for (SessionKey key : keys) {
            List<StoredEvent> events = EventRows.select(c, key, 1, Long.MAX_VALUE, false);
            TextRows.insert(c, INSTANCE, key, TextRows.docs(events));
        }
    }
}
