package dev.threadline.store.jdbc;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SearchText;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rows of the full-text index both SQL stores keep beside the journal ({@code journal_text}: a
 * session's number, the seq, role, time and text of each message; issue 38), written in the append's
 * own transaction and deleted with the session. The database's index over them differs (SQLite FTS5,
 * PostgreSQL a {@code tsvector} under a GIN index), so the statements come from a {@link TextDialect};
 * what documents are, their words and the hits' snippets come from core's {@link SearchText}, the same
 * on every backend. Stateless.
 */
public final class TextRows {
    private TextRows() {}

    /**
     * The statements of one database's text index. Implementations are stateless.
     */
    public interface TextDialect {
        /**
         * The insert of one row; parameters: seq, role, time (epoch nanos), text, words (the text's
         * words, space-separated), tenant, session id.
         */
        String insertSql();

        /**
         * The search over {@code ranges} ranges; parameters: the match expression, the tenant, then
         * (session id, from seq, to seq) per range, then the limit. Columns: session id, seq, role, time, text, score,
         * best first.
         */
        String searchSql(int ranges);

        /** The match expression of the database for any of {@code terms} (each only letters and digits). */
        String match(Set<String> terms);
    }

    /**
     * One message of an append, ready to insert.
     *
     * @param seq  its seq
     * @param role its role's wire name
     * @param time its time, epoch nanoseconds
     * @param text its text
     */
    public record Doc(long seq, String role, long time, String text) {}

    /** The messages among {@code events}, as {@link SearchText#document} reads them. */
    public static List<Doc> docs(List<StoredEvent> events) {
        List<Doc> out = new ArrayList<>();
        for (StoredEvent e : events) {
            Optional<SearchText.Document> d = SearchText.document(e);
            d.ifPresent(doc -> out.add(new Doc(e.seq(), doc.role().name(), EpochNanos.of(e.time()), doc.text())));
        }
        return out;
    }

    /**
     * Inserts the rows of {@code docs} for session {@code key}, in the caller's transaction.
     *
     * @throws SQLException when the database fails the statement
     */
    public static void insert(Connection c, TextDialect dialect, SessionKey key, List<Doc> docs) throws SQLException {
        if (docs.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(dialect.insertSql())) {
            for (Doc d : docs) {
                int i = bind(ps, 1, d);
                ps.setString(i++, key.tenant());
                ps.setString(i, key.id());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * Deletes session {@code key}'s rows (with the session; an erasure deletes through it).
     *
     * @throws SQLException when the database fails the statement
     */
    public static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM journal_text WHERE sid = (SELECT sid FROM sessions WHERE tenant = ? AND id = ?)")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

    /**
     * Deletes session {@code key}'s rows at or before {@code seq} (a prune, ADR 0045).
     *
     * @throws SQLException when the database fails the statement
     */
    public static void deleteThrough(Connection c, SessionKey key, long seq) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM journal_text WHERE sid = (SELECT sid FROM sessions WHERE tenant = ? AND id = ?) AND seq <= ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, seq);
            ps.executeUpdate();
        }
    }

    /**
     * Binds seq, role, time, text and words from {@code at}; returns the next index.
     *
     * @throws SQLException when the driver refuses a parameter
     */
    public static int bind(PreparedStatement ps, int at, Doc d) throws SQLException {
        int i = at;
        ps.setLong(i++, d.seq());
        ps.setString(i++, d.role());
        ps.setLong(i++, d.time());
        ps.setString(i++, d.text());
        ps.setString(i++, String.join(" ", SearchText.words(d.text())));
        return i;
    }

    /**
     * The hits of {@code query} in {@code ranges} (one tenant's), best first, at most {@code limit}.
     *
     * @throws SQLException when the database fails the statement
     * @throws dev.threadline.core.error.InvalidInputException as {@link SearchText#terms} does
     */
    public static List<SearchHit> search(Connection c, TextDialect dialect, List<SearchRange> ranges, String query, int limit)
            throws SQLException {
        Set<String> terms = SearchText.terms(query, limit);
        List<SearchRange> asked = ranges.stream().filter(r -> !r.isEmpty()).toList();
        if (asked.isEmpty()) {
            return List.of();
        }
        String tenant = asked.getFirst().key().tenant();
        List<SearchHit> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(dialect.searchSql(asked.size()))) {
            int i = 1;
            ps.setString(i++, dialect.match(terms));
            ps.setString(i++, tenant);
            for (SearchRange r : asked) {
                ps.setString(i++, r.key().tenant().equals(tenant) ? r.key().id() : "");
                ps.setLong(i++, r.fromSeq());
                ps.setLong(i++, r.toSeq());
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SearchHit(rs.getString(1), rs.getLong(2), Role.valueOf(rs.getString(3)),
                            EpochNanos.instant(rs.getLong(4)), SearchText.snippet(rs.getString(5), terms), rs.getDouble(6)));
                }
            }
        }
        return out;
    }

    /** {@code ( (s.id = ? AND t.seq BETWEEN ? AND ?) OR … )} for {@code ranges} ranges. */
    public static String rangesSql(int ranges) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < ranges; i++) {
            sb.append(i == 0 ? "" : " OR ").append("(s.id = ? AND t.seq BETWEEN ? AND ?)");
        }
        return sb.append(')').toString();
    }
}
