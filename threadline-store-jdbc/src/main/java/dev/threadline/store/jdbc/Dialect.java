package dev.threadline.store.jdbc;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The reads and lease statements each JDBC store writes its own way, because its tables differ there:
 * SQLite reads a session's head off its journal and keeps the lease on the session row; PostgreSQL keeps
 * both on a narrow {@code heads} row. {@link JdbcStateStore} runs them in its units of work. Every method
 * runs on a connection the store gave it, inside that unit's transaction. Implementations are
 * stateless, so thread-safe.
 */
public interface Dialect {
    /**
     * The session's head seq; {@link dev.threadline.core.error.SessionNotFoundException} when it does not exist.
     *
     * @throws SQLException when the database fails the statement
     */
    long head(Connection c, SessionKey key) throws SQLException;

    /**
     * The session's own events with {@code from <= seq <= to}, in order; only transcript events when asked.
     *
     * @throws SQLException when the database fails the statement
     */
    List<StoredEvent> events(Connection c, SessionKey key, long from, long to, boolean transcriptOnly) throws SQLException;

    /**
     * The session's own transcript events with {@code from <= seq <= to}, without their envelopes.
     *
     * @throws SQLException when the database fails the statement
     */
    List<Event> transcriptEvents(Connection c, SessionKey key, long from, long to) throws SQLException;

    /**
     * One page of a listing.
     *
     * @throws SQLException when the database fails the statement
     */
    Page<SessionSummary> list(Connection c, SessionQuery query) throws SQLException;

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
