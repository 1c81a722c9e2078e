package dev.threadline.store.sqlite;

import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.LeaseStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * Each session's lease, in the columns {@code lease_owner}, {@code lease_epoch} and
 * {@code lease_expires} of its {@code sessions} row. The epoch stays when the lease is released
 * (owner and expiry cleared), so the next acquisition moves it on and a released writer stays fenced.
 * Every method runs inside a write transaction of the caller's, so a check and its update are atomic.
 */
enum LeaseRows implements LeaseStatements {
    /** The one instance: the statements hold no state. */
    INSTANCE;

    /** The session's epoch and its lease (null when free). */
    private record State(long epoch, Lease lease) {}

    private static State state(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT lease_owner, lease_epoch, lease_expires FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SessionNotFoundException(key.id());
                }
                String owner = rs.getString(1);
                long epoch = rs.getLong(2);
                return new State(epoch, owner == null ? null : new Lease(key, owner, epoch, EpochNanos.instant(rs.getLong(3))));
            }
        }
    }

    /** The current lease (possibly expired), or null. */
    @Override
    public Lease lease(Connection c, SessionKey key) throws SQLException {
        return state(c, key).lease();
    }

    /** See {@link dev.threadline.core.store.Leases#acquire}; arguments already checked. */
    @Override
    public LeaseResult acquire(Connection c, SessionKey key, String owner, Duration ttl, String deadHolder, Instant now)
            throws SQLException {
        State s = state(c, key);
        Lease current = s.lease();
        if (current != null && current.owner().equals(owner)) {
            return new LeaseResult.Acquired(write(c, key, owner, current.epoch(), now.plus(ttl)), null);
        }
        if (current != null && !current.expiredAt(now) && !current.owner().equals(deadHolder)) {
            return new LeaseResult.Held(current);
        }
        return new LeaseResult.Acquired(write(c, key, owner, s.epoch() + 1, now.plus(ttl)), current);
    }

    /** See {@link dev.threadline.core.store.Leases#renew}; arguments already checked. */
    @Override
    public Lease renew(Connection c, Lease lease, Duration ttl, Instant now) throws SQLException {
        State s = state(c, lease.key());
        if (s.lease() == null || s.epoch() != lease.epoch() || !s.lease().owner().equals(lease.owner())) {
            throw new LeaseLostException(lease.key().id(), lease.epoch(), s.epoch());
        }
        return write(c, lease.key(), lease.owner(), lease.epoch(), now.plus(ttl));
    }

    /** Clears the lease if it is still {@code lease} (same owner and epoch); otherwise changes nothing. */
    @Override
    public void release(Connection c, Lease lease) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET lease_owner = NULL, lease_expires = NULL"
                + " WHERE tenant = ? AND id = ? AND lease_owner = ? AND lease_epoch = ?")) {
            ps.setString(1, lease.key().tenant());
            ps.setString(2, lease.key().id());
            ps.setString(3, lease.owner());
            ps.setLong(4, lease.epoch());
            ps.executeUpdate();
        }
    }

    private static Lease write(Connection c, SessionKey key, String owner, long epoch, Instant expires) throws SQLException {
        Lease lease = new Lease(key, owner, epoch, expires);
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET lease_owner = ?, lease_epoch = ?, lease_expires = ?"
                + " WHERE tenant = ? AND id = ?")) {
            ps.setString(1, owner);
            ps.setLong(2, epoch);
            ps.setLong(3, EpochNanos.of(expires));
            ps.setString(4, key.tenant());
            ps.setString(5, key.id());
            ps.executeUpdate();
        }
        return lease;
    }
}
