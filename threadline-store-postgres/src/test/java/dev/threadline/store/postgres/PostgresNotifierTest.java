package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.harness.servers.PgServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The notifier that tells followers after an append commits ({@link HeadNotifier}): a follower in another
 * store instance wakes by the notification (its re-check interval is made far longer than the test may
 * wait, so nothing else can wake it), many sessions appended at once all wake their waiters, nothing
 * is sent while no one of the schema listens, a notifier whose connection was killed drops hints and
 * comes back, and closing the store stops its thread.
 */
class PostgresNotifierTest {
    /** So long that a waiter woken within the test's waits was woken by a notification. */
    private static final long NEVER_MS = TimeUnit.HOURS.toMillis(1);
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static PostgresStateStore.Options options(String schema) {
        return PostgresStateStore.Options.defaults().withSchema(schema);
    }

    /**
     * One session committing faster than the notifier's gap costs one send a gap, not one a step
     * (before, every append that found the notifier idle was a send of its own: a server transaction and
     * two wake-ups beside each step). No two sends start less than {@link HeadNotifier#MIN_GAP_NANOS}
     * apart, so over a burst the sends are at most its length in gaps, plus one; the follower
     * still hears of the last append.
     */
    @Test
    void aBurstOfAppendsToOneSessionSendsAtMostOneNotificationAGap() throws Exception {
        String schema = PgStores.freshSchema("notify_gap");
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema));
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options(schema), NEVER_MS, false)) {
            SessionKey key = new SessionKey("t", "burst");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            int appends = 300;
            CompletableFuture<Long> seen = await(follower, key, appends);
            awaitListening(follower, 1);
            long sendsBefore = writer.notifier().sends(); // the session's creation may have been one
            long start = System.nanoTime();
            for (long head = 1; head <= appends; head++) {
                writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("burst", head + 1, 1)));
            }
            assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the follower heard of the last append").isEqualTo(appends + 1);
            long elapsed = System.nanoTime() - start;
            assertThat(writer.notifier().sends() - sendsBefore)
                    .as("sends over a %d ms burst of %d appends", TimeUnit.NANOSECONDS.toMillis(elapsed), appends)
                    .isPositive().isLessThanOrEqualTo(elapsed / HeadNotifier.MIN_GAP_NANOS + 1);
            assertThat(writer.notifier().dropped()).isZero();
        }
    }

    /**
     * A hint that comes right after a send waits for the rest of the gap since that send began
     * (before, it went out at once, each step its own send): twenty times, the second of two hints sent
     * one after the other is out no sooner than {@link HeadNotifier#MIN_GAP_NANOS} after the first was given.
     */
    @Test
    void aHintRightAfterASendWaitsForTheRestOfTheGap() throws Exception {
        String schema = PgStores.freshSchema("notify_spacing");
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema));
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options(schema), NEVER_MS, false)) {
            HeadNotifier notifier = writer.notifier();
            SessionKey key = new SessionKey("t", "spaced");
            PgStores.leasedSession(writer, key, 1, "w");
            CompletableFuture<Long> listening = listening(follower, key);
            long sentBefore = notifier.sent();
            notifier.hint(key);
            awaitTrue(() -> notifier.sent() == sentBefore + 1, "the first hint is sent");
            for (int i = 1; i <= 20; i++) {
                long sent = notifier.sent();
                long start = System.nanoTime();
                notifier.hint(key);
                spinUntil(() -> notifier.sent() == sent + 1, "hint " + i + " is sent");
                notifier.hint(key);
                spinUntil(() -> notifier.sent() == sent + 2, "the hint after " + i + " is sent");
                assertThat(System.nanoTime() - start).as("ns from hint %d to the send of the one after it", i)
                        .isGreaterThanOrEqualTo(HeadNotifier.MIN_GAP_NANOS);
            }
            assertThat(notifier.dropped()).isZero();
            assertThat(listening).isNotDone();
        }
    }

    /**
     * No send while no one of the store's schema listens: a burst of appends costs a look in
     * pg_stat_activity per {@link HeadNotifier#QUIET_GAP_NANOS} at most, and a listener of another schema
     * on the same database changes nothing; once a follower of the schema listens, the next append
     * wakes it by notification (its re-check interval is far longer than the test may wait).
     */
    @Test
    void nothingIsSentWhileNoOneListensAndAFollowerThatComesIsToldOfTheNextAppend() throws Exception {
        String schema = PgStores.freshSchema("notify_unheard");
        String other = PgStores.freshSchema("notify_other");
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema));
             PostgresStateStore elsewhere = PostgresStateStore.open(PgStores.url(), options(other), NEVER_MS, false);
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options(schema), NEVER_MS, false)) {
            SessionKey key = new SessionKey("t", "unheard");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            SessionKey otherKey = new SessionKey("t", "other");
            PgStores.leasedSession(elsewhere, otherKey, 1, "w");
            CompletableFuture<Long> otherWaits = listening(elsewhere, otherKey);
            HeadNotifier notifier = writer.notifier();
            int appends = 100;
            long start = System.nanoTime();
            long head = 1;
            for (int i = 0; i < appends; i++) {
                head = writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("unheard", head + 1, 1)));
            }
            long last = head;
            awaitTrue(notifier::drained, "every append's hint is taken");
            long elapsed = System.nanoTime() - start;
            assertThat(notifier.sends()).as("sends with no listener of the schema").isZero();
            assertThat(notifier.unheard()).as("hints taken unheard (one per session and look)").isPositive();
            assertThat(notifier.looks()).as("looks over %d ms of appends", TimeUnit.NANOSECONDS.toMillis(elapsed))
                    .isPositive().isLessThanOrEqualTo(elapsed / HeadNotifier.QUIET_GAP_NANOS + 1);
            assertThat(notifier.dropped()).isZero();
            CompletableFuture<Long> seen = await(follower, key, last);
            awaitListening(follower, 1);
            writer.append(AppendRequest.of(key, last, epoch, StoreFixtures.messages("unheard", last + 1, 1)));
            assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the follower heard of the append").isEqualTo(last + 1);
            assertThat(notifier.sends()).isPositive();
            assertThat(otherWaits).isNotDone();
        }
    }

    @Test
    void aFollowerInAnotherStoreWakesByTheNotificationOfAnAppend() throws Exception {
        String schema = PgStores.freshSchema("notify");
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema));
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options(schema), NEVER_MS, false)) {
            SessionKey key = new SessionKey("t", "followed");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            for (long head = 1; head < 4; head++) {
                long after = head;
                long deliveredBefore = follower.listener().delivered();
                CompletableFuture<Long> seen = await(follower, key, after);
                awaitListening(follower, 1);
                writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("followed", head + 1, 1)));
                assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(head + 1);
                assertThat(follower.listener().delivered()).isGreaterThan(deliveredBefore);
            }
            awaitTrue(() -> writer.notifier().sent() == 3, "the three hints are counted as sent");
        }
    }

    /**
     * A database that does not show its connections (here {@code pg_stat_activity} unreadable to the
     * store's role, in a database of its own): the notifier's first look fails, and from then on it
     * sends every hint without looking, listener or not, and a follower is woken by notification.
     */
    @Test
    void aDatabaseThatCannotShowItsListenersGetsEveryHint() throws Exception {
        String db = "notify_blind";
        PgServer server = PgServer.shared();
        PgStores.url(); // the shared server, started if needed
        server.createDatabase(db);
        try (Connection c = server.connect(db); Statement s = c.createStatement()) {
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tl_blind') THEN CREATE ROLE tl_blind LOGIN; END IF; END $$");
            s.execute("GRANT CREATE ON DATABASE " + db + " TO tl_blind");
            s.execute("REVOKE SELECT ON pg_catalog.pg_stat_activity FROM PUBLIC");
        }
        String url = "postgresql://tl_blind@127.0.0.1:" + server.port() + "/" + db;
        String schema = PgStores.freshSchema("notify_blind");
        try (PostgresStateStore writer = PostgresStateStore.open(url, options(schema));
             PostgresStateStore follower = PostgresStateStore.open(url, options(schema), NEVER_MS, false)) {
            SessionKey key = new SessionKey("t", "blind");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            long head = writer.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages("blind", 2, 1)));
            HeadNotifier notifier = writer.notifier();
            awaitTrue(() -> notifier.sends() == 1, "the hint is sent although no one listens");
            assertThat(notifier.looks()).as("looks: the one that failed").isEqualTo(1);
            assertThat(notifier.unheard()).isZero();
            CompletableFuture<Long> seen = await(follower, key, head);
            awaitListening(follower, 1);
            writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("blind", head + 1, 1)));
            assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the follower heard of the append").isEqualTo(head + 1);
            assertThat(notifier.looks()).as("no look after the failed one").isEqualTo(1);
            assertThat(notifier.dropped()).isZero();
        }
    }

    @ParameterizedTest(name = "packed={0}")
    @ValueSource(booleans = {false, true})
    void manySessionsAppendedAtOnceAllWakeTheirWaiters(boolean packed) throws Exception {
        String schema = PgStores.freshSchema("notify");
        int sessions = 64;
        // long ids: 64 entries of ~150 bytes do not fit one packed payload when they are gathered into one send
        String pad = "x".repeat(120);
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema), HeadListener.RECHECK_MS, packed);
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options(schema), NEVER_MS, false)) {
            List<SessionKey> keys = new ArrayList<>();
            List<Long> epochs = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                SessionKey key = new SessionKey("t", "s" + i + pad);
                keys.add(key);
                epochs.add(PgStores.leasedSession(writer, key, 1, "w"));
            }
            List<CompletableFuture<Long>> seen = new ArrayList<>();
            for (SessionKey key : keys) {
                seen.add(await(follower, key, 1));
            }
            awaitListening(follower, sessions);
            long deliveredBefore = follower.listener().delivered();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Long>> appends = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    SessionKey key = keys.get(i);
                    long epoch = epochs.get(i);
                    appends.add(pool.submit(() -> writer.append(AppendRequest.of(key, 1, epoch,
                            StoreFixtures.messages(key.id(), 2, 1)))));
                }
                for (Future<Long> a : appends) {
                    assertThat(a.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
                }
            }
            for (CompletableFuture<Long> s : seen) {
                assertThat(s.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
            }
            assertThat(follower.listener().delivered() - deliveredBefore).isGreaterThanOrEqualTo(sessions);
            awaitTrue(() -> writer.notifier().sent() == sessions, "every hint is counted as sent");
            assertThat(writer.notifier().dropped()).isZero();
        }
    }

    @Test
    void packedPayloadsStayUnderTheServersLimitAndTheServerTakesThem() throws Exception {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            entries.add("some_schema|tenant" + i + "|" + "session-".repeat(15) + i);
        }
        List<String> payloads = HintPayloads.of(entries, HintPayloads.MAX_BYTES, true);
        assertThat(payloads).hasSizeGreaterThan(1);
        List<String> back = new ArrayList<>();
        for (String p : payloads) {
            assertThat(p.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(HintPayloads.MAX_BYTES);
            back.addAll(List.of(p.split(String.valueOf(HintPayloads.SEPARATOR))));
        }
        assertThat(back).isEqualTo(entries);
        assertThat(HintPayloads.of(entries, HintPayloads.MAX_BYTES, false)).isEqualTo(entries);
        // the largest payload a send can carry is one the server accepts (it refuses 8000 bytes or more)
        String largest = "a".repeat(HintPayloads.MAX_BYTES);
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT pg_notify('threadline_test', ?)")) {
            for (String p : List.of(payloads.get(0), largest)) {
                ps.setString(1, p);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                }
            }
        }
    }

    @Test
    void aNotifierWhoseConnectionIsKilledDropsHintsNeverFailsAnAppendAndReconnects() throws Exception {
        String schema = PgStores.freshSchema("notify");
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema));
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options(schema), NEVER_MS, false)) {
            SessionKey key = new SessionKey("t", "killed");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            SessionKey anchor = new SessionKey("t", "anchor");
            PgStores.leasedSession(writer, anchor, 1, "w");
            CompletableFuture<Long> listening = listening(follower, anchor);
            long sentBefore = writer.notifier().sent();
            long head = writer.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages("killed", 2, 1)));
            awaitTrue(() -> writer.notifier().sent() == sentBefore + 1 && writer.notifier().backendPid() != 0, "the first hint is sent");
            int killed = writer.notifier().backendPid();
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
                ps.setInt(1, killed);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next() && rs.getBoolean(1)).isTrue();
                }
            }
            // appends go on while the notifier finds its connection dead, drops hints and reconnects
            while (writer.notifier().backendPid() == killed || writer.notifier().backendPid() == 0) {
                head = writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("killed", head + 1, 1)));
                assertThat(head).isLessThan(10_000); // a notifier that never comes back fails here, not by hanging
            }
            assertThat(writer.notifier().dropped()).isPositive(); // the hint whose send met the dead connection at least
            // back: a follower wakes by notification again
            CompletableFuture<Long> seen = await(follower, key, head);
            awaitListening(follower, 2); // the anchor's waiter and this one
            long deliveredBefore = follower.listener().delivered();
            writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("killed", head + 1, 1)));
            assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(head + 1);
            assertThat(follower.listener().delivered()).isGreaterThan(deliveredBefore);
            assertThat(listening).isNotDone();
        }
    }

    @Test
    void closingTheStoreStopsTheNotifierThread() throws Exception {
        String schema = PgStores.freshSchema("notify");
        Thread thread;
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options(schema))) {
            assertThat(writer.notifier().thread()).isNull(); // started by the first hint, not before
            SessionKey key = new SessionKey("t", "closed");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            writer.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages("closed", 2, 1)));
            thread = writer.notifier().thread();
            assertThat(thread).isNotNull();
            assertThat(thread.isAlive()).isTrue();
        }
        assertThat(thread.isAlive()).isFalse();
        try (PostgresStateStore off = PostgresStateStore.open(PgStores.url(), options(schema).withNotifications(false))) {
            assertThat(off.notifier()).isNull(); // notifications off: no notifier at all
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

    /**
     * A waiter on {@code key} of {@code follower} that no append in the test satisfies, once its listener
     * is connected: a listener of the schema, so that the writer's hints are sent.
     */
    private static CompletableFuture<Long> listening(PostgresStateStore follower, SessionKey key) {
        CompletableFuture<Long> waiter = await(follower, key, Long.MAX_VALUE - 1);
        awaitListening(follower, 1);
        return waiter;
    }

    /**
     * Waits until the follower's listener is connected and has woken everyone once, and {@code sessions}
     * waiters wait again having seen that wake: from then on only a notification wakes them before the
     * (huge) re-check interval.
     */
    private static void awaitListening(PostgresStateStore follower, int sessions) {
        awaitTrue(() -> follower.listener().live() && follower.listener().connections() >= 1
                && follower.listener().parkedOnLatest() == sessions, sessions + " followers wait on a connected listener");
    }

    /** Waits for a condition with a generous timeout (a condition, not a duration, is what the test waits for). */
    private static void awaitTrue(BooleanSupplier condition, String what) {
        until(condition, what, () -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)));
    }

    /** Like {@link #awaitTrue}, without pausing between looks: for timing what a condition waits on. */
    private static void spinUntil(BooleanSupplier condition, String what) {
        until(condition, what, Thread::onSpinWait);
    }

    private static void until(BooleanSupplier condition, String what, Runnable betweenLooks) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            betweenLooks.run();
        }
    }

    private static Connection connect() throws Exception {
        return DriverManager.getConnection(PgUrl.parse(PgStores.url()).jdbcUrl(), credentials());
    }

    private static java.util.Properties credentials() {
        PgUrl u = PgUrl.parse(PgStores.url());
        java.util.Properties p = new java.util.Properties();
        if (u.user() != null) {
            p.setProperty("user", u.user());
        }
        if (u.password() != null) {
            p.setProperty("password", u.password());
        }
        return p;
    }
}
