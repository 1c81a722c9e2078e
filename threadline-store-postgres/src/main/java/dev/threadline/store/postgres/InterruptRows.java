package dev.threadline.store.postgres;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.Sealing;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Interrupt requests ({@link dev.threadline.core.store.Leases#requestInterrupt}): at most one per
 * session in {@code interrupts}, made for one lease epoch, each operation a single statement. A
 * request is taken only while its epoch is the session's current one, so the next holder never sees
 * a request made for the one before. The reason is bound and read as the store's {@link Sealing} says (sealed at
 * rest into {@code reason_sealed} with keys, ADR 0049). Stateless.
 */
final class InterruptRows {
    private InterruptRows() {}

    /** Inserts only for an existing session (the SELECT finds its row), replacing an untaken request. */
    private static String put(Sealing sealing) {
        return "INSERT INTO interrupts (tenant, session_id, epoch, " + sealing.columns("reason") + ")"
                + " SELECT tenant, id, ?, " + sealing.params() + " FROM sessions WHERE tenant = ? AND id = ?"
                + " ON CONFLICT (tenant, session_id) DO UPDATE SET epoch = excluded.epoch, " + sealing.excluded("reason");
    }

    /** Deletes the request if it is for this epoch and the epoch is still the session's; returns its reason. */
    private static final String TAKE = """
            DELETE FROM interrupts i USING heads h
            WHERE i.tenant = ? AND i.session_id = ? AND i.epoch = ?
              AND h.tenant = i.tenant AND h.id = i.session_id AND h.lease_epoch = i.epoch
            RETURNING i.reason, i.reason_sealed""";

    /** @throws SessionNotFoundException when the session does not exist */
    static void put(Connection c, SessionKey key, long epoch, String reason, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(put(sealing))) {
            ps.setLong(1, epoch);
            int i = sealing.bind(ps, 2, reason, place(key, epoch));
            ps.setString(i++, key.tenant());
            ps.setString(i, key.id());
            if (ps.executeUpdate() == 0) {
                throw new SessionNotFoundException(key.id());
            }
        }
    }

    /** The reason of the request taken, or null when none waits for this lease's epoch. */
    static String take(Connection c, Lease lease, Sealing sealing) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(TAKE)) {
            ps.setString(1, lease.key().tenant());
            ps.setString(2, lease.key().id());
            ps.setLong(3, lease.epoch());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? sealing.text(rs, 1, place(lease.key(), lease.epoch())) : null;
            }
        }
    }

    /** The associated data of a reason: the session and the epoch it was requested for (as on SQLite). */
    private static Sealing.Place place(SessionKey key, long epoch) {
        return new Sealing.Place("interrupt", key.tenant(), key.id(), Long.toString(epoch));
    }
}
