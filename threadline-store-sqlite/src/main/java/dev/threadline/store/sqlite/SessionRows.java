package dev.threadline.store.sqlite;

import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sessions} table: the sessions index. The {@link SessionInfo} is stored as JSON
 * ({@code info}); the columns beside it (tenant, user, parent, head, times) are what queries filter
 * and sort on. Times are epoch nanoseconds: exact and sortable from 1677 to 2262.
 */
final class SessionRows {
    private SessionRows() {}

    static void insert(Connection c, SessionInfo info, String json, long head, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sessions (id, tenant, user_id, parent_id, parent_seq,"
                + " info, head_seq, created_at, updated_at, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, info.id());
            ps.setString(2, info.tenant());
            ps.setString(3, info.userId());
            ps.setString(4, info.parentId());
            ps.setLong(5, info.parentSeq());
            ps.setString(6, json);
            ps.setLong(7, head);
            ps.setLong(8, nanos(info.createdAt()));
            ps.setLong(9, nanos(now));
            ps.setInt(10, RecordCodec.VERSION);
            ps.executeUpdate();
        }
    }

    /** The head seq, or {@link SessionNotFoundException}. */
    static long head(Connection c, String sessionId) throws SQLException {
        Long head = headOrNull(c, sessionId);
        if (head == null) {
            throw new SessionNotFoundException(sessionId);
        }
        return head;
    }

    static Long headOrNull(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT head_seq FROM sessions WHERE id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    static void moveHead(Connection c, String sessionId, long head, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET head_seq = ?, updated_at = ? WHERE id = ?")) {
            ps.setLong(1, head);
            ps.setLong(2, nanos(now));
            ps.setString(3, sessionId);
            ps.executeUpdate();
        }
    }

    static SessionInfo info(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT info FROM sessions WHERE id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? RecordCodec.decodeSession(sessionId, rs.getString(1)) : null;
            }
        }
    }

    /**
     * Finds the tenant's (or user's) sessions through the indexes on (tenant, id) and (tenant, user_id, id)
     * and sorts them by {@code updated_at}: a scan of that tenant's sessions per listing, the price of
     * indexes that an append does not rewrite (ADR 0011).
     */
    static List<SessionSummary> list(Connection c, SessionQuery query) throws SQLException {
        String sql = "SELECT id, info, head_seq, updated_at FROM sessions WHERE tenant = ?"
                + (query.userId() == null ? "" : " AND user_id = ?") + " ORDER BY updated_at DESC, id LIMIT ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            ps.setString(i++, query.tenant());
            if (query.userId() != null) {
                ps.setString(i++, query.userId());
            }
            ps.setInt(i, query.limit());
            List<SessionSummary> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SessionSummary(RecordCodec.decodeSession(rs.getString(1), rs.getString(2)),
                            rs.getLong(3), instant(rs.getLong(4))));
                }
            }
            return out;
        }
    }

    static List<String> branches(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM sessions WHERE parent_id = ? ORDER BY id")) {
            ps.setString(1, sessionId);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }

    static void delete(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM sessions WHERE id = ?")) {
            ps.setString(1, sessionId);
            ps.executeUpdate();
        }
    }

    /** Epoch nanoseconds, saturated at the ends of the long range (instants before 1677 or after 2262). */
    static long nanos(Instant t) {
        try {
            return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
        } catch (ArithmeticException e) {
            return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
