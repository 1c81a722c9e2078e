package dev.threadline.store.sqlite;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.store.jdbc.Dialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The kit's {@link Dialect} on this store's tables: its rows classes' statements. Stateless. */
final class SqliteDialect implements Dialect {
    static final SqliteDialect INSTANCE = new SqliteDialect();

    private SqliteDialect() {}

    @Override
    public long head(Connection c, SessionKey key) throws SQLException {
        return SessionRows.head(c, key);
    }

    @Override
    public List<StoredEvent> events(Connection c, SessionKey key, long from, long to, boolean transcriptOnly) throws SQLException {
        return EventRows.select(c, key, from, to, transcriptOnly);
    }

    @Override
    public List<Event> transcriptEvents(Connection c, SessionKey key, long from, long to) throws SQLException {
        return SegmentRows.transcriptEvents(c, key, from, to);
    }

    @Override
    public Page<SessionSummary> list(Connection c, SessionQuery query) throws SQLException {
        return SessionPages.list(c, query);
    }

    @Override
    public LeaseResult acquire(Connection c, SessionKey key, String owner, Duration ttl, String deadHolder, Instant now)
            throws SQLException {
        return LeaseRows.acquire(c, key, owner, ttl, deadHolder, now);
    }

    @Override
    public Lease renew(Connection c, Lease lease, Duration ttl, Instant now) throws SQLException {
        return LeaseRows.renew(c, lease, ttl, now);
    }

    @Override
    public void release(Connection c, Lease lease) throws SQLException {
        LeaseRows.release(c, lease);
    }

    @Override
    public Lease lease(Connection c, SessionKey key) throws SQLException {
        return LeaseRows.current(c, key);
    }
}
