package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.PgBouncerProcess;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store behind a real pgbouncer in transaction pooling mode (ADR 0048): two stores on one pgbouncer
 * share leases, fencing and head notifications; without {@code direct=} the store refuses at open, and
 * so it does behind a pgbouncer that refuses pgjdbc's startup parameter, each in one line naming the
 * setting to change.
 */
class PgBouncerTest {
    private static final String DB = "bouncer";
    /** So long that a waiter woken within the test was woken by a notification. */
    private static final long NEVER_MS = TimeUnit.HOURS.toMillis(1);
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Duration TTL = Duration.ofSeconds(30);

    @BeforeAll
    static void pgbouncer() {
        PgBouncers.require();
    }

    /**
     * Two stores on one pgbouncer: the second cannot take the first's lease while it holds it, takes it
     * over when it lapses (the shared clock moved past it), and the first's next append is fenced; a
     * follower whose waiters only a notification can wake hears of the other's append. The pgbouncer is
     * shown to pool by transaction first (one client connection meets two server processes), so none of
     * this can lean on a session.
     */
    @Test
    void twoStoresOnOnePgBouncerShareLeasesFencingAndNotifications() throws Exception {
        assertThat(backendsOfOneClientConnection()).as("server processes one client connection met").isEqualTo(2);
        String url = PgBouncers.url(DB);
        String schema = PgStores.freshSchema("bouncer_two");
        TickingClock clock = new TickingClock(Instant.parse("2026-01-01T00:00:00Z"));
        PostgresStateStore.Options o = PostgresStateStore.Options.defaults().withClock(clock).withSchema(schema);
        try (PostgresStateStore a = PostgresStateStore.open(url, o);
             PostgresStateStore b = PostgresStateStore.open(url, o, NEVER_MS, false)) {
            SessionKey key = new SessionKey("t", "shared");
            long epochA = PgStores.leasedSession(a, key, 1, "a");
            assertThat(b.acquire(key, "b", TTL, null)).isInstanceOf(LeaseResult.Held.class);

            CompletableFuture<Long> seen = await(b, key, 1);
            awaitTrue(() -> b.listener().live() && b.listener().parkedOnLatest() == 1, "b's waiter parks on a live listener");
            for (long head = 1; head <= 10; head++) { // more than pgjdbc's prepareThreshold (5) of the same statement
                assertThat(a.append(AppendRequest.of(key, head, epochA, StoreFixtures.messages("shared", head + 1, 1)))).isEqualTo(head + 1);
            }
            assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("b heard of a's append by a notification").isGreaterThan(1);
            assertThat(a.notifier().sends()).isPositive();

            clock.advance(Duration.ofMinutes(6)); // past a's lease (PgStores leases for 5 minutes)
            long epochB = ((LeaseResult.Acquired) b.acquire(key, "b", TTL, null)).lease().epoch();
            assertThat(epochB).isGreaterThan(epochA);
            assertThatThrownBy(() -> a.append(AppendRequest.of(key, 11, epochA, StoreFixtures.messages("shared", 12, 1))))
                    .isInstanceOf(LeaseLostException.class);
            CompletableFuture<Long> seenByA = await(a, key, 11);
            assertThat(b.append(AppendRequest.of(key, 11, epochB, StoreFixtures.messages("shared", 12, 1)))).isEqualTo(12);
            assertThat(seenByA.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(12);
            assertThat(a.head(key)).isEqualTo(12);
            assertThat(a.readOwn(key, 1, 100)).hasSize(12);
        }
    }

    /**
     * Two stores of different schemas through a pgbouncer with only two server connections, appending
     * and reading at once from eight threads: every transaction runs on a server connection the other
     * store's transactions used too, so a schema set for a session (not per transaction) would send one
     * store's statements into the other's tables. Each store sees exactly its own journals.
     */
    @Test
    void storesOfTwoSchemasSharingTwoServerConnectionsEachSeeOnlyTheirOwn() throws Exception {
        PgServer.shared().createDatabase(DB);
        Map<String, String> settings = PgBouncerProcess.defaults();
        settings.put("default_pool_size", "2");
        try (PgBouncerProcess small = PgBouncerProcess.start(PgServer.shared(), settings)) {
            String url = small.url(DB) + "?direct=127.0.0.1:" + PgServer.shared().port();
            PostgresStateStore.Options o = PostgresStateStore.Options.defaults().withPoolWait(WAIT);
            try (PostgresStateStore a = PostgresStateStore.open(url, o.withSchema(PgStores.freshSchema("bouncer_a")));
                 PostgresStateStore b = PostgresStateStore.open(url, o.withSchema(PgStores.freshSchema("bouncer_b")).withSerializable(true))) {
                int steps = 40;
                List<Callable<Void>> writers = new ArrayList<>();
                for (int w = 0; w < 4; w++) {
                    for (PostgresStateStore store : List.of(a, b)) {
                        SessionKey key = new SessionKey("t", "s" + w);
                        int length = store == a ? 1 : 2; // the same ids in both schemas, of different lengths
                        writers.add(() -> {
                            long epoch = PgStores.leasedSession(store, key, length, "o");
                            for (long head = length; head < length + steps; head++) {
                                assertThat(store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(key.id(), head + 1, 1))))
                                        .isEqualTo(head + 1);
                                assertThat(store.head(key)).isEqualTo(head + 1);
                            }
                            return null;
                        });
                    }
                }
                try (ExecutorService pool = Executors.newFixedThreadPool(writers.size())) {
                    for (Future<Void> f : pool.invokeAll(writers)) {
                        f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    }
                }
                for (int w = 0; w < 4; w++) {
                    SessionKey key = new SessionKey("t", "s" + w);
                    assertThat(a.readOwn(key, 1, 1000)).hasSize(1 + steps);
                    assertThat(b.readOwn(key, 1, 1000)).hasSize(2 + steps);
                }
            }
        }
    }

    /** Without direct=, a store whose connections reach pgbouncer refuses at open, in one line naming the parameter, and creates nothing. */
    @Test
    void withoutTheDirectParameterTheStoreRefusesAtOpen() throws Exception {
        PgServer.shared().createDatabase(DB);
        String schema = PgStores.freshSchema("bouncer_refused");
        assertThatThrownBy(() -> PostgresStateStore.open(PgBouncers.shared().url(DB),
                PostgresStateStore.Options.defaults().withSchema(schema)))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                        .doesNotContain("\n").contains("connection pooler").contains("direct=host:port"));
        try (Connection c = PgServer.shared().connect(DB); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'")) {
            assertThat(rs.next() && rs.getInt(1) == 0).as("no schema created").isTrue();
        }
    }

    /** A direct= that names pgbouncer itself is refused, naming the parameter. */
    @Test
    void aDirectAddressThatIsThePoolerIsRefused() {
        PgServer.shared().createDatabase(DB);
        String url = PgBouncers.shared().url(DB) + "?direct=127.0.0.1:" + PgBouncers.shared().port();
        assertThatThrownBy(() -> PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(PgStores.freshSchema("b"))))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    assertThat(e.field()).isEqualTo("store url parameter direct");
                    assertThat(e.getMessage()).doesNotContain("\n").contains("reaches a connection pooler too");
                });
    }

    /**
     * A session setting in the store URL that pgjdbc sends at startup ({@code currentSchema}: search_path)
     * is refused by pgbouncer, which keeps no session setting in transaction pooling: the store says so at
     * open in one line naming what to change. (pgjdbc's own {@code extra_float_digits} is no longer refused:
     * this pgbouncer, without {@code ignore_startup_parameters}, lets the store open.)
     */
    @Test
    void aSessionSettingInTheUrlIsRefusedAtOpenNamingWhatToChange() {
        PgServer.shared().createDatabase(DB);
        Map<String, String> settings = PgBouncerProcess.defaults();
        settings.remove("ignore_startup_parameters");
        try (PgBouncerProcess strict = PgBouncerProcess.start(PgServer.shared(), settings)) {
            String url = strict.url(DB) + "?direct=127.0.0.1:" + PgServer.shared().port();
            assertThatThrownBy(() -> PostgresStateStore.open(url + "&currentSchema=tenant_a", PostgresStateStore.Options.defaults()))
                    .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage()).doesNotContain("\n")
                            .contains("refused the startup parameter search_path").contains("Options.withSchema"));
            try (PostgresStateStore store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults()
                    .withSchema(PgStores.freshSchema("bouncer_strict")))) {
                SessionKey key = new SessionKey("t", "strict");
                PgStores.leasedSession(store, key, 3, "o");
                assertThat(store.head(key)).isEqualTo(3);
            }
        }
    }

    /**
     * pgbouncer in session mode makes up the backend key as in transaction mode, so it too is refused
     * without direct= (a client cannot tell the modes apart) and works with it.
     */
    @Test
    void aSessionModePgBouncerIsAPoolerToo() {
        PgServer.shared().createDatabase(DB);
        Map<String, String> settings = PgBouncerProcess.defaults();
        settings.put("pool_mode", "session");
        try (PgBouncerProcess session = PgBouncerProcess.start(PgServer.shared(), settings)) {
            PostgresStateStore.Options o = PostgresStateStore.Options.defaults().withSchema(PgStores.freshSchema("bouncer_session"));
            assertThatThrownBy(() -> PostgresStateStore.open(session.url(DB), o))
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage()).contains("direct=host:port"));
            try (PostgresStateStore store = PostgresStateStore.open(session.url(DB) + "?direct=127.0.0.1:" + PgServer.shared().port(), o)) {
                SessionKey key = new SessionKey("t", "session");
                long epoch = PgStores.leasedSession(store, key, 1, "o");
                assertThat(store.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages("session", 2, 1)))).isEqualTo(2);
            }
        }
    }

    /** Given direct= without a pooler in between, the store opens and works the same (nothing depends on the pooler). */
    @Test
    void theDirectParameterWithoutAPoolerIsHarmless() {
        String url = PgStores.url() + "?direct=127.0.0.1:" + PgServer.shared().port();
        try (PostgresStateStore store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults()
                .withSchema(PgStores.freshSchema("bouncer_none")))) {
            SessionKey key = new SessionKey("t", "s");
            long epoch = PgStores.leasedSession(store, key, 1, "o");
            assertThat(store.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages("s", 2, 1)))).isEqualTo(2);
        }
    }

    /**
     * How many server processes one client connection through the pgbouncer meets over two transactions
     * while a second client connection holds a transaction open in between: 2 under transaction pooling
     * (pgbouncer hands the first connection's server process to the second, and the first gets another).
     */
    private static int backendsOfOneClientConnection() throws SQLException {
        PgServer.shared().createDatabase(DB);
        Properties p = new Properties();
        p.setProperty("user", PgServer.USER);
        p.setProperty("prepareThreshold", "0");
        String jdbc = "jdbc:postgresql://127.0.0.1:" + PgBouncers.shared().port() + "/" + DB;
        try (Connection first = DriverManager.getConnection(jdbc, p); Connection second = DriverManager.getConnection(jdbc, p)) {
            int before = pid(first);
            second.setAutoCommit(false);
            int held = pid(second);
            int after = pid(first);
            second.rollback();
            assertThat(held).as("the second connection got the first's server process").isEqualTo(before);
            return before == after ? 1 : 2;
        }
    }

    private static int pid(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static CompletableFuture<Long> await(PostgresStateStore store, SessionKey key, long after) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return store.awaitHead(key, after, Duration.ofHours(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, Executors.newVirtualThreadPerTaskExecutor());
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
