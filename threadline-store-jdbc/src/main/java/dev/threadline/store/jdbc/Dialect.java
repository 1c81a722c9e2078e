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
import java.util.Objects;

/**
 * The reads and lease statements each JDBC store writes its own way, because its tables differ there:
 * SQLite reads a session's head off its journal and keeps the lease on the session row; PostgreSQL keeps
 * both on a narrow {@code heads} row. {@link JdbcStateStore} runs them in its units of work. Every method
 * runs on a connection the store gave it, inside that unit's transaction. Implementations are
 * stateless, so thread-safe. A store makes its dialect with {@link #of} from its rows classes' statements.
 */
public interface Dialect extends LeaseStatements {
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
     * The dialect of a store whose rows classes hold these statements (each usually a method reference),
     * so that a store writes none of the delegation itself.
     */
    static Dialect of(Head head, Events events, Transcript transcript, Listing listing, LeaseStatements leases) {
        Objects.requireNonNull(head, "head");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(transcript, "transcript");
        Objects.requireNonNull(listing, "listing");
        Objects.requireNonNull(leases, "leases");
        return new Dialect() {
            @Override
            public long head(Connection c, SessionKey key) throws SQLException {
                return head.read(c, key);
            }

            @Override
            public List<StoredEvent> events(Connection c, SessionKey key, long from, long to, boolean transcriptOnly)
                    throws SQLException {
                return events.read(c, key, from, to, transcriptOnly);
            }

            @Override
            public List<Event> transcriptEvents(Connection c, SessionKey key, long from, long to) throws SQLException {
                return transcript.read(c, key, from, to);
            }

            @Override
            public Page<SessionSummary> list(Connection c, SessionQuery query) throws SQLException {
                return listing.read(c, query);
            }

            @Override
            public LeaseResult acquire(Connection c, SessionKey key, String owner, Duration ttl, String deadHolder, Instant now)
                    throws SQLException {
                return leases.acquire(c, key, owner, ttl, deadHolder, now);
            }

            @Override
            public Lease renew(Connection c, Lease lease, Duration ttl, Instant now) throws SQLException {
                return leases.renew(c, lease, ttl, now);
            }

            @Override
            public void release(Connection c, Lease lease) throws SQLException {
                leases.release(c, lease);
            }

            @Override
            public Lease lease(Connection c, SessionKey key) throws SQLException {
                return leases.lease(c, key);
            }
        };
    }

    /** {@link #head}, as a store's statement; stateless, so thread-safe. */
    @FunctionalInterface
    interface Head {
        /**
         * The session's head seq.
         *
         * @throws SQLException when the database fails the statement
         */
        long read(Connection c, SessionKey key) throws SQLException;
    }

    /** {@link #events}, as a store's statement; stateless, so thread-safe. */
    @FunctionalInterface
    interface Events {
        /**
         * The session's own events in the range.
         *
         * @throws SQLException when the database fails the statement
         */
        List<StoredEvent> read(Connection c, SessionKey key, long from, long to, boolean transcriptOnly) throws SQLException;
    }

    /** {@link #transcriptEvents}, as a store's statement; stateless, so thread-safe. */
    @FunctionalInterface
    interface Transcript {
        /**
         * The session's own transcript events in the range.
         *
         * @throws SQLException when the database fails the statement
         */
        List<Event> read(Connection c, SessionKey key, long from, long to) throws SQLException;
    }

    /** {@link #list}, as a store's statement; stateless, so thread-safe. */
    @FunctionalInterface
    interface Listing {
        /**
         * One page of a listing.
         *
         * @throws SQLException when the database fails the statement
         */
        Page<SessionSummary> read(Connection c, SessionQuery query) throws SQLException;
    }
}
