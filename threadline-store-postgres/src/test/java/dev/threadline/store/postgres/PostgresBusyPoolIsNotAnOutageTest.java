package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Regression (found by the benchmark: 256 sessions on the default 10 connections failed with "store
 * unavailable … Connection is not available, request timed out after 5000ms" on a loaded machine whose
 * server was fine): a call that finds every pooled connection busy waits for one up to the pool wait,
 * not the connect timeout, and if the pool stays busy it fails saying so, never "store unavailable".
 * The pool's one connection is kept busy by an append waiting on a row lock another connection holds.
 */
class PostgresBusyPoolIsNotAnOutageTest {
    private static final Duration CONNECT = Duration.ofMillis(250);
    private final String schema = PgStores.freshSchema("busy");
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private PostgresStateStore store(Duration poolWait) {
        return PostgresStateStore.open(PgStores.url(), PostgresStateStore.Options.defaults().withSchema(schema).withPoolSize(1)
                .withConnectTimeout(CONNECT).withPoolWait(poolWait).withNotifications(false));
    }

    /** Locks the session's heads row on a connection of the test's own, until it is closed. */
    private Connection lockHeadsRow(SessionKey key) throws SQLException {
        PgStores.url(); // the database, created if needed
        Connection c = dev.threadline.harness.servers.PgServer.shared().connect(PgStores.DB);
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM heads WHERE tenant = ? AND id = ? FOR UPDATE")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
            }
        }
        return c;
    }

    /** An append of the store's, waiting on the row lock with the pool's only connection (seen in pg_stat_activity). */
    private CompletableFuture<Long> appendHeldByTheLock(PostgresStateStore store, SessionKey key, long epoch, Connection monitor)
            throws Exception {
        CompletableFuture<Long> append = CompletableFuture.supplyAsync(
                () -> store.append(AppendRequest.of(key, 2, epoch, StoreFixtures.messages(key.id(), 3, 1))), threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Statement s = monitor.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                    + " WHERE application_name = 'threadline' AND wait_event_type = 'Lock'")) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    return append;
                }
            }
            assertThat(append).as("the append waits on the lock").isNotDone();
            assertThat(System.nanoTime()).as("the append reached the lock within 30 s").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * What a test does while the pool's only connection is held by an append waiting on a row lock; it
     * may leave a call waiting, which must end before the store is closed.
     */
    private interface WhileHeld {
        CompletableFuture<?> run(PostgresStateStore store) throws Exception;
    }

    /**
     * Holds the pool's only connection with an append to a new session {@code id} waiting on its row
     * lock, runs {@code body}, then lets the lock go: the append goes in, and the session's head is 3.
     * Returns what the call {@code body} left waiting gave, once it ended (the store is closed after it:
     * closed first, the call would fail for that, as it once did in CI).
     */
    private Object whileTheOnlyConnectionIsHeld(String id, Duration poolWait, WhileHeld body) throws Exception {
        SessionKey key = new SessionKey("t", id);
        try (PostgresStateStore store = store(poolWait)) {
            long epoch = PgStores.leasedSession(store, key, 2, "w");
            Connection blocker = lockHeadsRow(key);
            CompletableFuture<Long> append;
            CompletableFuture<?> waiting;
            try {
                append = appendHeldByTheLock(store, key, epoch, blocker);
                waiting = body.run(store);
            } finally {
                blocker.rollback();
                blocker.close();
            }
            assertThat(append.get(30, TimeUnit.SECONDS)).as("the held append went in once the lock was gone").isEqualTo(3);
            assertThat(store.head(key)).isEqualTo(3);
            return waiting == null ? null : waiting.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPoolThatStaysBusyFailsTheCallSayingSoNotStoreUnavailable() throws Exception {
        whileTheOnlyConnectionIsHeld("held", Duration.ofMillis(600), store -> {
            assertThatThrownBy(() -> store.head(new SessionKey("t", "other")))
                    .isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage())
                            .startsWith("postgres store postgresql://")
                            .contains("all 1 of the pool's connections stayed busy with other calls for 600 ms")
                            .contains("Options.withPoolSize").doesNotContain("store unavailable").doesNotContain("\n"));
            return null;
        });
    }

    /**
     * Regression (this class's next test once closed its store while its waiting call was still
     * waiting, and the call failed "store unavailable"): a call waiting for the pool when its own store
     * is closed is told that the store is closed, not that the server is unavailable.
     */
    @Test
    void aCallWaitingForThePoolWhenItsStoreClosesIsToldTheStoreIsClosed() throws Exception {
        SessionKey key = new SessionKey("t", "closing");
        PostgresStateStore store = store(Duration.ofSeconds(30));
        Connection blocker = null;
        try {
            long epoch = PgStores.leasedSession(store, key, 2, "w");
            blocker = lockHeadsRow(key);
            CompletableFuture<Long> append = appendHeldByTheLock(store, key, epoch, blocker);
            CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> store.head(key), threads);
            assertThatThrownBy(() -> waiting.get(4 * CONNECT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the call waits for the pool").isInstanceOf(TimeoutException.class);
            store.close();
            assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS))
                    .cause().isInstanceOf(StorageException.class)
                    .satisfies(e -> assertThat(e.getMessage()).startsWith("the postgres store postgresql://")
                            .contains("is closed (read the head of session 'closing')").doesNotContain("store unavailable"));
            assertThatThrownBy(() -> append.get(30, TimeUnit.SECONDS)).as("the held append ends with the pool").isNotNull();
        } finally {
            store.close();
            if (blocker != null) {
                blocker.rollback();
                blocker.close();
            }
        }
    }

    @Test
    void aCallWaitsOnABusyPoolLongerThanTheConnectTimeoutAndThenRuns() throws Exception {
        Object head = whileTheOnlyConnectionIsHeld("waits", Duration.ofSeconds(30), store -> {
            CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> store.head(new SessionKey("t", "waits")), threads);
            // four connect timeouts: before the fix the call failed "store unavailable" after one
            assertThatThrownBy(() -> waiting.get(4 * CONNECT.toMillis(), TimeUnit.MILLISECONDS))
                    .as("the call still waits for the pool").isInstanceOf(TimeoutException.class);
            return waiting;
        });
        assertThat(head).as("the waiting call ran once the connection was free").isIn(2L, 3L);
    }
}
