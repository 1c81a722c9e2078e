package dev.threadline.store.jdbc;

import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;

/**
 * The lease statements of a JDBC store, each run on a connection the store gave it inside that unit's
 * transaction; part of its {@link Dialect}. Implementations are stateless, so thread-safe.
 */
public interface LeaseStatements {
    /**
     * Acquires the session's lease as {@link dev.threadline.core.store.Leases#acquire} says, judged at {@code now}.
     *
     * @throws SQLException when the database fails the statement
     */
    LeaseResult acquire(Connection c, SessionKey key, String owner, Duration ttl, String deadHolder, Instant now)
            throws SQLException;

    /**
     * Renews the lease as {@link dev.threadline.core.store.Leases#renew} says, judged at {@code now}.
     *
     * @throws SQLException when the database fails the statement
     */
    Lease renew(Connection c, Lease lease, Duration ttl, Instant now) throws SQLException;

    /**
     * Releases the lease if it is still the session's.
     *
     * @throws SQLException when the database fails the statement
     */
    void release(Connection c, Lease lease) throws SQLException;

    /**
     * The session's lease as stored (expired or not), or null when it has none.
     *
     * @throws SQLException when the database fails the statement
     */
    Lease lease(Connection c, SessionKey key) throws SQLException;
}
