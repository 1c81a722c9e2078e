package dev.threadline.store.postgres;

import dev.threadline.harness.servers.PgServer;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers of the PostgreSQL-specific tests: a fresh schema on the shared server, sessions with a lease. */
final class PgStores {
    static final String DB = "pgtests";
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private PgStores() {}

    /** A schema name no other test uses. */
    static String freshSchema(String prefix) {
        return prefix + "_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    }

    /** The shared server's URL of the tests' database, created if needed. */
    static String url() {
        PgServer.shared().createDatabase(DB);
        return PgServer.shared().url(DB);
    }

    /** Creates a root session of {@code length} events and leases it for {@code owner}; returns the epoch. */
    static long leasedSession(StateStore store, SessionKey key, int length, String owner) {
        SessionInfo info = StoreFixtures.root(key.id(), key.tenant(), "u");
        List<StoredEvent> events = new ArrayList<>();
        events.add(StoreFixtures.first(info));
        events.addAll(StoreFixtures.messages(key.id(), 2, length - 1));
        store.create(info, events);
        return ((LeaseResult.Acquired) store.acquire(key, owner, Duration.ofMinutes(5), null)).lease().epoch();
    }
}
