package dev.threadline.store.postgres;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.SessionTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The {@code sessions} table, the index of sessions keyed by (tenant, id), and each session's
 * {@code heads} row (migration 6): the journal's head, the lease and the recency on one narrow row, so
 * the append's fencing check and its head move are one conditional UPDATE of one row, HOT. The {@link SessionInfo} is stored as {@link RecordCodec} JSON ({@code info});
 * the columns beside it are what queries filter and sort on. Stateless.
 */
final class SessionRows {
    private SessionRows() {}

    /**
     * Inserts the session's row and its heads row unless the key is taken, in one statement (the heads row
     * takes its {@code sid} from the session row's insert); false when the key is taken.
     */
    static boolean insert(Connection c, SessionInfo info, long head, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("WITH s AS (INSERT INTO sessions (tenant, id, user_id, parent_id,"
                + " parent_seq, info, v, created_at, metadata, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)"
                + " ON CONFLICT (tenant, id) DO NOTHING RETURNING sid, tenant, id, user_id)"
                + " INSERT INTO heads (sid, head_seq, lease_epoch, updated_at, recent, tenant, id, user_id)"
                + " SELECT sid, ?, 0, ?, ?, tenant, id, user_id FROM s")) {
            long updated = EpochNanos.of(now);
            ps.setString(1, info.tenant());
            ps.setString(2, info.id());
            ps.setString(3, info.userId());
            ps.setString(4, info.parentId());
            ps.setLong(5, info.parentSeq());
            ps.setString(6, RecordCodec.encodeSession(info));
            ps.setInt(7, RecordCodec.VERSION);
            ps.setLong(8, EpochNanos.of(info.createdAt()));
            ps.setString(9, Json.write(info.metadata()));
            SessionTable.setExpiresAt(ps, 10, info);
            ps.setLong(11, head);
            ps.setLong(12, updated);
            ps.setLong(13, Migrations.recent(updated));
            return ps.executeUpdate() == 1;
        }
    }

    static boolean exists(Connection c, SessionKey key) throws SQLException {
        return positionOrNull(c, key, "") != null;
    }

    /** The head seq, or {@link SessionNotFoundException}. */
    static long head(Connection c, SessionKey key) throws SQLException {
        return position(c, key, "").head();
    }

    /** The head and lease epoch, or {@link SessionNotFoundException} (the same for another tenant's id as for an unknown one). */
    static SessionTable.Position position(Connection c, SessionKey key, String lock) throws SQLException {
        SessionTable.Position p = positionOrNull(c, key, lock);
        if (p == null) {
            throw new SessionNotFoundException(key.id());
        }
        return p;
    }

    /** {@code lock} is "" or a locking clause (" FOR UPDATE", " FOR SHARE"). */
    static SessionTable.Position positionOrNull(Connection c, SessionKey key, String lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT head_seq, lease_epoch FROM heads WHERE tenant = ? AND id = ?" + lock)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new SessionTable.Position(rs.getLong(1), rs.getLong(2)) : null;
            }
        }
    }

    /**
     * Deletes the session and every row that hangs off it (events, full-text rows, segments, snapshots, command records,
     * interrupts, the heads row). The caller holds the heads row locked ({@code FOR UPDATE}) first: the journal has no
     * foreign key (migration 6), so that lock is what keeps a step committing meanwhile from leaving
     * events behind (the step's UPDATE waits for the deletion, then finds no row and writes nothing).
     */
    static void delete(Connection c, SessionKey key) throws SQLException {
        for (String sql : List.of("DELETE FROM journal_text WHERE sid = " + EventRows.SID,
                "DELETE FROM events WHERE sid = " + EventRows.SID,
                "DELETE FROM segments WHERE sid = " + EventRows.SID,
                "DELETE FROM history_bases WHERE sid = " + EventRows.SID,
                "DELETE FROM snapshots WHERE tenant = ? AND session_id = ?",
                "DELETE FROM commands WHERE tenant = ? AND session_id = ?",
                "DELETE FROM interrupts WHERE tenant = ? AND session_id = ?",
                "DELETE FROM heads WHERE tenant = ? AND id = ?",
                "DELETE FROM sessions WHERE tenant = ? AND id = ?")) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, key.tenant());
                ps.setString(2, key.id());
                ps.executeUpdate();
            }
        }
    }

    /** Throws what refuses {@code request} on the row as it is now: a stale epoch, or a head that moved; returns if neither. */
    static Void refusal(Connection c, AppendRequest request) throws SQLException {
        SessionKey key = request.key();
        SessionTable.Position at = SessionRows.position(c, key, "");
        if (at.epoch() != request.epoch()) {
            throw new LeaseLostException(key.id(), request.epoch(), at.epoch());
        }
        if (at.head() != request.expectedSeq()) {
            throw new VersionConflictException(key.id(), request.expectedSeq(), at.head());
        }
        return null;
    }
}
