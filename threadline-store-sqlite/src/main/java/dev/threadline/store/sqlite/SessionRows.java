package dev.threadline.store.sqlite;

import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sessions} table: the sessions index, keyed by (tenant, id). The {@link SessionInfo} is
 * stored as JSON ({@code info}); the columns beside it (user, parent, head, times, lease) are what
 * queries filter and sort on and what an append checks. Times are epoch nanoseconds: exact and
 * sortable from 1677 to 2262. Listing is in {@link SessionPages}, leases in {@link LeaseRows}.
 */
final class SessionRows {
    private SessionRows() {}

    /** Where a session's journal is and who may write it: read by every append in its transaction. */
    record Position(long head, long epoch) {}

    static void insert(Connection c, SessionInfo info, String json, long head, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq,"
                + " info, head_seq, created_at, updated_at, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, info.tenant());
            ps.setString(2, info.id());
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
    static long head(Connection c, SessionKey key) throws SQLException {
        return position(c, key).head();
    }

    /** The head and lease epoch, or {@link SessionNotFoundException} (the same for another tenant's id as for an unknown one). */
    static Position position(Connection c, SessionKey key) throws SQLException {
        Position p = positionOrNull(c, key);
        if (p == null) {
            throw new SessionNotFoundException(key.id());
        }
        return p;
    }

    static Position positionOrNull(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT head_seq, lease_epoch FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Position(rs.getLong(1), rs.getLong(2)) : null;
            }
        }
    }

    static void moveHead(Connection c, SessionKey key, long head, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET head_seq = ?, updated_at = ? WHERE tenant = ? AND id = ?")) {
            ps.setLong(1, head);
            ps.setLong(2, nanos(now));
            ps.setString(3, key.tenant());
            ps.setString(4, key.id());
            ps.executeUpdate();
        }
    }

    static SessionInfo info(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT info FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? decode(key.id(), rs.getString(1)) : null;
            }
        }
    }

    /** A session row's JSON; a corrupt one is a one-line {@link dev.threadline.core.StorageException} naming the session. */
    static SessionInfo decode(String id, String json) {
        try {
            return RecordCodec.decodeSession(id, json);
        } catch (dev.threadline.core.StorageException e) {
            throw OneLine.of(e);
        }
    }

    static List<String> branches(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM sessions WHERE tenant = ? AND parent_id = ? ORDER BY id")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }

    static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
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
