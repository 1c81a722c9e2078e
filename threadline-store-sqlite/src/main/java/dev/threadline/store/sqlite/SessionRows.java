package dev.threadline.store.sqlite;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.SessionTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The {@code sessions} table: the sessions index, keyed by (tenant, id). The {@link SessionInfo} is
 * stored as JSON ({@code info}); the columns beside it (user, parent, times, lease) are what
 * queries filter and sort on and what an append checks. The head and the last update are read from
 * the journal ({@link #HEAD}, {@link #UPDATED}): an append does not write this table. Times are epoch nanoseconds: exact and
 * sortable from 1677 to 2262. Listing is in {@link SessionPages}, leases in {@link LeaseRows}.
 */
final class SessionRows {
    private SessionRows() {}

    /**
     * The head of a session row {@code s}, as SQL: the last seq of its own journal, or its branch point
     * while it has none (version 5 keeps no head column, ADR 0025). One seek to the end of its key range.
     */
    static final String HEAD = "COALESCE((SELECT max(e.seq) FROM events e WHERE e.sid = s.sid), s.parent_seq)";

    /** The last update of a session row {@code s}, as SQL (epoch nanoseconds): its last append, or its creation. */
    static final String UPDATED = "COALESCE((SELECT e.time + e.appended FROM events e WHERE e.sid = s.sid"
            + " ORDER BY e.seq DESC LIMIT 1), s.updated_at)";

    /** The number ({@code sid}) of the session {@code tenant = ? AND id = ?}, as SQL: the journal's key. */
    static final String SID = "(SELECT sid FROM sessions WHERE tenant = ? AND id = ?)";

    static void insert(Connection c, SessionInfo info, String json, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq,"
                + " info, created_at, updated_at, v, expires_at, sid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " (SELECT COALESCE(max(sid), 0) + 1 FROM sessions))")) {
            ps.setString(1, info.tenant());
            ps.setString(2, info.id());
            ps.setString(3, info.userId());
            ps.setString(4, info.parentId());
            ps.setLong(5, info.parentSeq());
            ps.setString(6, json);
            ps.setLong(7, EpochNanos.of(info.createdAt()));
            ps.setLong(8, EpochNanos.of(now));
            ps.setInt(9, RecordCodec.VERSION);
            SessionTable.setExpiresAt(ps, 10, info);
            ps.executeUpdate();
        }
    }

    /** The head seq, or {@link SessionNotFoundException}. */
    static long head(Connection c, SessionKey key) throws SQLException {
        return position(c, key).head();
    }

    /** The head and lease epoch, or {@link SessionNotFoundException} (the same for another tenant's id as for an unknown one). */
    static SessionTable.Position position(Connection c, SessionKey key) throws SQLException {
        SessionTable.Position p = positionOrNull(c, key);
        if (p == null) {
            throw new SessionNotFoundException(key.id());
        }
        return p;
    }

    static SessionTable.Position positionOrNull(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + HEAD + ", s.lease_epoch FROM sessions s WHERE s.tenant = ? AND s.id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new SessionTable.Position(rs.getLong(1), rs.getLong(2)) : null;
            }
        }
    }

    static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

}
