package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Group commit of ordinary steps ({@link StepBatcher}, ADR 0029) on a real server: steps that arrive
 * while one is written go together in one transaction; a step that fails in a batch fails alone and the
 * others are applied; through the store, many sessions appending at once keep exact journals.
 */
class PostgresGroupCommitTest {
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void stepsThatArriveDuringAWriteGoTogetherInOneTransaction() throws Exception {
        try (Fixture f = new Fixture(List.of())) {
            assertThat(f.results()).containsOnly("ok");
            assertThat(f.batcher.counts()).containsExactly(1L, 10L);
            assertThat(f.rows()).isEqualTo(11);
            assertThat(f.commits).as("the sessions each commit moved, handed on once per commit (the notifier's one send)")
                    .containsExactly(List.of(key(0)), java.util.stream.IntStream.rangeClosed(1, 10).mapToObj(i -> key(i)).sorted(
                            java.util.Comparator.comparing(SessionKey::id)).toList());
        }
    }

    @Test
    void aStepThatFailsInABatchFailsAloneAndTheOthersAreApplied() throws Exception {
        try (Fixture f = new Fixture(List.of(4))) { // step 4 inserts a key that is there already
            List<String> results = f.results();
            assertThat(results.get(4)).startsWith("failed: ").contains("duplicate key");
            results.remove(4);
            assertThat(results).containsOnly("ok");
            assertThat(f.batcher.counts()).as("the refused batch is not counted").containsExactly(0L, 0L);
            assertThat(f.rows()).as("the ten good steps, each applied once").isEqualTo(10);
            assertThat(f.commits).as("each good step's own commit handed on, the refused batch's not")
                    .hasSize(10).allSatisfy(keys -> assertThat(keys).hasSize(1)).doesNotContain(List.of(key(4)));
        }
    }

    @Test
    void manySessionsAppendingAtOnceKeepExactJournals() throws Exception {
        String schema = PgStores.freshSchema("batch");
        int sessions = 32;
        int steps = 25;
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                PostgresStateStore.Options.defaults().withSchema(schema).withNotifications(false));
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<SessionKey> keys = new ArrayList<>();
            List<Long> epochs = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                keys.add(new SessionKey("t", "s" + i));
                epochs.add(PgStores.leasedSession(store, keys.get(i), 1, "w"));
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<StoredEvent>>> written = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                SessionKey key = keys.get(i);
                long epoch = epochs.get(i);
                int perStep = 1 + i % 2; // one or two events a step: batches hold statements of two texts
                written.add(pool.submit(() -> {
                    go.await();
                    List<StoredEvent> mine = new ArrayList<>();
                    long head = 1;
                    for (int step = 0; step < steps; step++) {
                        List<StoredEvent> events = StoreFixtures.messages(key.id(), head + 1, perStep);
                        assertThat(store.append(AppendRequest.of(key, head, epoch, events))).isEqualTo(head + perStep);
                        head += perStep;
                        mine.addAll(events);
                    }
                    return mine;
                }));
            }
            go.countDown();
            for (int i = 0; i < sessions; i++) {
                List<StoredEvent> mine = written.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                long head = 1 + (long) steps * (1 + i % 2);
                assertThat(store.head(keys.get(i))).isEqualTo(head);
                assertThat(store.readOwn(keys.get(i), 2, head)).isEqualTo(mine);
            }
            assertThat(store.batcherCounts()[0]).as("batches were formed").isPositive();
        }
    }

    private static SessionKey key(int n) {
        return new SessionKey("t", "s" + n);
    }

    /**
     * One batcher (one leader) on a table {@code t(k primary key)}: step 0 holds the leader inside its
     * statement until ten more steps queue, then the ten go in one batch. Steps listed in {@code bad}
     * insert key 0 again.
     */
    private static final class Fixture implements AutoCloseable {
        final Db db;
        final StepBatcher batcher;
        final List<Future<String>> futures = new ArrayList<>();
        final List<List<SessionKey>> commits = new java.util.concurrent.CopyOnWriteArrayList<>();
        final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();

        final String schema = PgStores.freshSchema("batcher");

        Fixture(List<Integer> bad) throws Exception {
            db = new Db(PgUrl.parse(PgStores.url()), PostgresStateStore.Options.defaults());
            db.writeOne(() -> "create", c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE SCHEMA " + schema);
                    s.execute("CREATE TABLE " + schema + ".t (k integer PRIMARY KEY)");
                }
                return null;
            });
            batcher = new StepBatcher(db, 1, 64, commits::add);
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            futures.add(pool.submit(() -> step(schema, 0, 0, () -> {
                inside.countDown();
                try {
                    return release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            })));
            assertThat(inside.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            for (int i = 1; i <= 10; i++) {
                int n = i;
                int k = bad.contains(i) ? 0 : i;
                futures.add(pool.submit(() -> step(schema, n, k, () -> true)));
            }
            long until = System.nanoTime() + WAIT.toNanos();
            while (batcher.queued() < 10 && System.nanoTime() < until) {
                Thread.onSpinWait(); // the ten are queued behind the held leader (a condition, not a pause)
            }
            assertThat(batcher.queued()).isEqualTo(10);
            release.countDown();
        }

        private String step(String schema, int n, int k, BooleanSupplier before) {
            try {
                boolean moved = batcher.run(key(n), () -> "step " + n, new StepBatcher.Step() {
                    @Override
                    public String sql() {
                        // a CTE, as a step's statement is (a plain INSERT ... VALUES would be rewritten by the driver)
                        return "WITH v AS (SELECT ?::integer AS k) INSERT INTO " + schema + ".t (k) SELECT k FROM v";
                    }

                    @Override
                    public int expected() {
                        return 1;
                    }

                    @Override
                    public void bind(PreparedStatement ps) throws java.sql.SQLException {
                        if (!before.getAsBoolean()) {
                            throw new IllegalStateException("not released");
                        }
                        ps.setInt(1, k);
                    }
                });
                return moved ? "ok" : "not moved";
            } catch (StorageException e) {
                return "failed: " + e.getMessage();
            }
        }

        List<String> results() throws Exception {
            List<String> out = new ArrayList<>();
            for (Future<String> f : futures) {
                out.add(f.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            return out;
        }

        long rows() {
            return db.read(() -> "count", c -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + schema + ".t")) {
                    rs.next();
                    return rs.getLong(1);
                }
            });
        }

        @Override
        public void close() {
            pool.shutdownNow();
            db.close();
        }
    }
}
