package dev.threadline.store.postgres;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.jdbc.LeaseStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * Each session's lease, in {@code lease_owner}, {@code lease_epoch} and {@code lease_expires} of its
 * {@code heads} row (migration 6; the row a step's compare-and-set moves, so a take-over and a step
 * serialise on it), changed only by single conditional statements whose conditions compare with
 * the store clock's {@code now} (passed in, never the server's clock). The epoch stays when a lease
 * is released, so the next acquisition moves it on and the released writer stays fenced. Stateless.
 */
enum LeaseRows implements LeaseStatements {
    /** The one instance: the statements hold no state. */
    INSTANCE;

    /**
     * One statement: lock the row, take the lease when it is free, expired, the caller's own or a
     * proven-dead holder's (the epoch moves on unless it is the caller's own), and return what the row
     * held before together with the new epoch (null when the lease stayed with its holder).
     */
    private static final String ACQUIRE = """
            WITH old AS (
              SELECT tenant, id, lease_owner, lease_epoch, lease_expires FROM heads
              WHERE tenant = ? AND id = ? FOR UPDATE),
            taken AS (
              UPDATE heads h SET
                lease_epoch = CASE WHEN old.lease_owner = ? THEN old.lease_epoch ELSE old.lease_epoch + 1 END,
                lease_owner = ?,
                lease_expires = ?
              FROM old
              WHERE h.tenant = old.tenant AND h.id = old.id
                AND (old.lease_owner IS NULL OR old.lease_owner = ? OR old.lease_expires <= ? OR old.lease_owner = ?)
              RETURNING h.lease_epoch)
            SELECT old.lease_owner, old.lease_epoch, old.lease_expires, taken.lease_epoch FROM old LEFT JOIN taken ON true""";

    /** See {@link dev.threadline.core.store.Leases#acquire}; arguments already checked. */
    @Override
    public LeaseResult acquire(Connection c, SessionKey key, String owner, Duration ttl, String deadHolder, Instant now)
            throws SQLException {
        Instant expires = now.plus(ttl);
        try (PreparedStatement ps = c.prepareStatement(ACQUIRE)) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            ps.setString(3, owner);
            ps.setString(4, owner);
            ps.setLong(5, EpochNanos.of(expires));
            ps.setString(6, owner);
            ps.setLong(7, EpochNanos.of(now));
            ps.setString(8, deadHolder);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SessionNotFoundException(key.id());
                }
                String oldOwner = rs.getString(1);
                long oldEpoch = rs.getLong(2);
                Lease old = oldOwner == null ? null : new Lease(key, oldOwner, oldEpoch, EpochNanos.instant(rs.getLong(3)));
                long newEpoch = rs.getLong(4);
                if (rs.wasNull()) {
                    return new LeaseResult.Held(old);
                }
                Lease replaced = old != null && !old.owner().equals(owner) ? old : null;
                return new LeaseResult.Acquired(new Lease(key, owner, newEpoch, expires), replaced);
            }
        }
    }

    /** See {@link dev.threadline.core.store.Leases#renew}; arguments already checked. */
    @Override
    public Lease renew(Connection c, Lease lease, Duration ttl, Instant now) throws SQLException {
        Instant expires = now.plus(ttl);
        try (PreparedStatement ps = c.prepareStatement("UPDATE heads SET lease_expires = ?"
                + " WHERE tenant = ? AND id = ? AND lease_owner = ? AND lease_epoch = ?")) {
            ps.setLong(1, EpochNanos.of(expires));
            ps.setString(2, lease.key().tenant());
            ps.setString(3, lease.key().id());
            ps.setString(4, lease.owner());
            ps.setLong(5, lease.epoch());
            if (ps.executeUpdate() == 1) {
                return new Lease(lease.key(), lease.owner(), lease.epoch(), expires);
            }
        }
        SessionTable.Position now2 = SessionRows.position(c, lease.key(), "");
        throw new LeaseLostException(lease.key().id(), lease.epoch(), now2.epoch());
    }

    /** Clears the lease if it is still {@code lease} (same owner and epoch); otherwise changes nothing. */
    @Override
    public void release(Connection c, Lease lease) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE heads SET lease_owner = NULL, lease_expires = NULL"
                + " WHERE tenant = ? AND id = ? AND lease_owner = ? AND lease_epoch = ?")) {
            ps.setString(1, lease.key().tenant());
            ps.setString(2, lease.key().id());
            ps.setString(3, lease.owner());
            ps.setLong(4, lease.epoch());
            ps.executeUpdate();
        }
    }

    /** The current lease (possibly expired), or null when free; {@link SessionNotFoundException} when there is no session. */
    @Override
    public Lease lease(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT lease_owner, lease_epoch, lease_expires FROM heads WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SessionNotFoundException(key.id());
                }
                String owner = rs.getString(1);
                return owner == null ? null : new Lease(key, owner, rs.getLong(2), EpochNanos.instant(rs.getLong(3)));
            }
        }
    }
}
