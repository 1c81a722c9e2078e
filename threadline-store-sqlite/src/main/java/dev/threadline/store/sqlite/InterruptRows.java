package dev.threadline.store.sqlite;

import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.Sealing;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Interrupt requests ({@link dev.threadline.core.store.Leases#requestInterrupt}): at most one per
 * session in the {@code interrupts} table, made for one lease epoch. A request is visible only while
 * its epoch is the session's current one, so a request for a holder that lost its lease is never seen
 * by the next one. Writes run inside a write transaction of the caller's; {@link #pending} reads only,
 * so a holder polling at each renewal tick writes nothing until there is something to take.
 */
final class InterruptRows {
    private InterruptRows() {}

    /** Records (or replaces) the session's request for {@code epoch}; the caller has checked the session exists. */
    static void put(Connection c, SessionKey key, long epoch, String reason, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO interrupts (tenant, session_id, epoch, reason)"
                + " VALUES (?, ?, ?, ?) ON CONFLICT (tenant, session_id) DO UPDATE SET epoch = excluded.epoch,"
                + " reason = excluded.reason")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setLong(3, epoch);
            sealing.bind(ps, 4, reason, place(key, epoch));
            ps.executeUpdate();
        }
    }

    /** The reason of the request for this lease's epoch, if that epoch is still the session's; null otherwise. */
    static String pending(Connection c, Lease lease, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT i.reason FROM interrupts i JOIN sessions s"
                + " ON s.tenant = i.tenant AND s.id = i.session_id"
                + " WHERE i.tenant = ? AND i.session_id = ? AND i.epoch = ? AND s.lease_epoch = ?")) {
            ps.setString(1, lease.key().tenant());
            ps.setString(2, lease.key().id());
            ps.setLong(3, lease.epoch());
            ps.setLong(4, lease.epoch());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? sealing.text(rs, 1, place(lease.key(), lease.epoch())) : null;
            }
        }
    }

    /** Removes and returns the request for this lease's epoch (null when there is none, or it is not current). */
    static String take(Connection c, Lease lease, Sealing sealing) throws SQLException {
        String reason = pending(c, lease, sealing);
        if (reason != null) {
            delete(c, lease.key());
        }
        return reason;
    }

    static void delete(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM interrupts WHERE tenant = ? AND session_id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.executeUpdate();
        }
    }

    private static Sealing.Place place(SessionKey key, long epoch) {
        return new Sealing.Place("interrupt", key.tenant(), key.id(), Long.toString(epoch));
    }
}
