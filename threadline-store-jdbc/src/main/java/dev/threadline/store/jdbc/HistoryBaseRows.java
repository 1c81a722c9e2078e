package dev.threadline.store.jdbc;

import dev.threadline.core.event.Event;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.internal.store.StoreChecks;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code history_bases} table of both JDBC stores (ADR 0045): one row per pruned session, keyed by its
 * {@code sid}, the base its journal starts from as the record's JSON; and the prune that writes it and
 * removes what it stands for, inside the caller's write transaction. Stateless.
 */
public final class HistoryBaseRows {
    /** A session's {@code sid} from its tenant and id (two parameters), the same on both stores. */
    private static final String SID = "(SELECT sid FROM sessions WHERE tenant = ? AND id = ?)";

    private HistoryBaseRows() {}

    /**
     * The session's base, or null; inside the caller's unit of work; the payload read as {@code sealing} says.
     *
     * @throws SQLException when the database fails the statement
     */
    public static HistoryBase find(Connection c, SessionKey key, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT v, " + sealing.columns("payload") + " FROM history_bases WHERE sid = " + SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? RecordCodec.decodeBase(key.id(), rs.getInt(1), sealing.text(rs, 2, basePlace(key))) : null;
            }
        }
    }

    private static Sealing.Place basePlace(SessionKey key) {
        return new Sealing.Place("base", key.tenant(), key.id(), "");
    }

    /**
     * The seq the session is pruned through, 0 when it is not; inside the caller's unit of work.
     *
     * @throws SQLException when the database fails the statement
     */
    public static long seq(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT seq FROM history_bases WHERE sid = " + SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * Checks the prune ({@link StoreChecks#prune}) of the session whose head is {@code head}, then keeps the base
     * ({@code payload} its encoding) and removes the session's own rows at or before it: a segment that reaches
     * past it gives its rows after it their payloads back first. The statements are the same on both databases;
     * every payload is read and written as {@code sealing} says.
     *
     * @throws SQLException when the database fails a statement
     */
    public static void prune(Connection c, SessionKey key, long head, HistoryBase base, String payload, Sealing sealing)
            throws SQLException {
        // the session's row, locked for the transaction: a branch's create locks its parent's row to share
        // (PostgreSQL's FOR SHARE; SQLite runs one writer at a time), so a prune and a fork of the same
        // session run one after the other and each sees what the other committed
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET sid = sid WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
        SessionInfo info = SessionTable.info(c, key);
        HistoryBase current = find(c, key, sealing);
        Map<String, Long> points = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, parent_seq FROM sessions WHERE tenant = ? AND parent_id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    points.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        long b = base.seq();
        StoreChecks.prune(info, head, current == null ? 0 : current.seq(), b, points);
        unsealAfter(c, key, b, sealing);
        delete(c, key, "DELETE FROM segments WHERE sid = " + SID + " AND last_seq <= ?", b);
        delete(c, key, "DELETE FROM events WHERE sid = " + SID + " AND seq <= ?", b);
        SharedRows.deleteSnapshotsThrough(c, key, b);
        TextRows.deleteThrough(c, key, b);
        keep(c, key, b, payload, sealing);
    }

    /**
     * Keeps {@code payload} (a base's encoding) as the base through {@code seq} of the session, whose row exists,
     * replacing an older one: a prune's last statement, and the start of a session created from a base
     * ({@link dev.threadline.core.store.HistoryPruning#createFromBase}); inside the caller's unit of work.
     *
     * @throws SQLException when the database fails the statement
     */
    public static void keep(Connection c, SessionKey key, long seq, String payload, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO history_bases (sid, seq, v, " + sealing.columns("payload")
                + ") VALUES (" + SID + ", ?, ?, " + sealing.params() + ") ON CONFLICT (sid) DO UPDATE SET seq = excluded.seq,"
                + " v = excluded.v, " + sealing.excluded("payload"))) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, seq);
            ps.setInt(4, RecordCodec.VERSION);
            sealing.bind(ps, 5, payload, basePlace(key));
            ps.executeUpdate();
        }
    }

    /** The segment holding seq {@code b} and more: its rows after {@code b} get their payloads back, and it goes. */
    private static void unsealAfter(Connection c, SessionKey key, long b, Sealing sealing) throws SQLException {
        long first = 0, last = 0;
        int v = 0;
        String json = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT first_seq, last_seq, v, " + sealing.columns("payloads")
                + " FROM segments WHERE sid = " + SID + " AND first_seq <= ? AND last_seq > ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, b);
            ps.setLong(4, b);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
                first = rs.getLong(1);
                last = rs.getLong(2);
                v = rs.getInt(3);
                json = sealing.text(rs, 4, Sealing.Place.segment(key.tenant(), key.id(), last));
            }
        }
        List<Long> seqs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq FROM events WHERE sid = " + SID
                + " AND seq >= ? AND seq <= ? AND touches_transcript = ? ORDER BY seq")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, first);
            ps.setLong(4, last);
            ps.setBoolean(5, true); // an INTEGER 1 on SQLite, a boolean on PostgreSQL
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    seqs.add(rs.getLong(1));
                }
            }
        }
        List<Event> events = RecordCodec.decodeSegment(key.id(), first, last, v, json);
        if (events.size() != seqs.size()) {
            throw new dev.threadline.core.error.StorageException("session '" + key.id() + "': the segment of seq " + first + ".."
                    + last + " holds " + events.size() + " events for " + seqs.size() + " rows");
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE events SET " + sealing.set("payload") + ", v = ? WHERE sid = " + SID
                + " AND seq = ?")) {
            for (int i = 0; i < seqs.size(); i++) {
                if (seqs.get(i) > b) {
                    int p = sealing.bind(ps, 1, RecordCodec.encodeEvent(events.get(i)),
                            Sealing.Place.event(key.tenant(), key.id(), seqs.get(i)));
                    ps.setInt(p++, RecordCodec.VERSION);
                    ps.setString(p++, key.tenant());
                    ps.setString(p++, key.id());
                    ps.setLong(p, seqs.get(i));
                    ps.addBatch();
                }
            }
            ps.executeBatch();
        }
        delete(c, key, "DELETE FROM segments WHERE sid = " + SID + " AND last_seq = ?", last);
    }

    private static void delete(Connection c, SessionKey key, String sql, long seq) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, seq);
            ps.executeUpdate();
        }
    }

    /**
     * Deletes the session's base (with the session).
     *
     * @throws SQLException when the database fails the statement
     */
    public static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM history_bases WHERE sid = " + SID)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }
}
