package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many connections of many store instances (as many processes would have) racing to append to one
 * session with the same expected seq: exactly one wins each seq, the journal is gapless, and under
 * SERIALIZABLE the losers' serialization failures are retried into plain version conflicts.
 */
class PostgresConcurrencyTest {
    private static final int STORES = 4;
    private static final int THREADS_PER_STORE = 4;
    private static final int ROUNDS = 30;

    @ParameterizedTest(name = "serializable={0}")
    @ValueSource(booleans = {false, true})
    void exactlyOneWriterWinsEachSeqAcrossStoresAndConnections(boolean serializable) throws Exception {
        String schema = PgStores.freshSchema("race");
        String url = PgStores.url();
        List<PostgresStateStore> stores = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
            stores.add(PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema)
                    .withPoolSize(THREADS_PER_STORE).withSerializable(serializable)));
        }
        SessionKey key = new SessionKey("t", "race");
        long epoch = PgStores.leasedSession(stores.get(0), key, 1, "owner");
        int threads = STORES * THREADS_PER_STORE;
        Map<Long, List<String>> winners = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CyclicBarrier barrier = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                PostgresStateStore store = stores.get(t % STORES);
                String writer = "w" + t;
                futures.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        long expected = 1 + round;
                        StoredEvent e = new StoredEvent("race", expected + 1, expected + 1, StoreFixtures.T0,
                                writer + "-r" + round, CheckpointSource.INPUT,
                                new Event.UserMessageReceived(Message.user("from " + writer)));
                        barrier.await(60, TimeUnit.SECONDS);
                        try {
                            long head = store.append(AppendRequest.of(key, expected, epoch, List.of(e)));
                            if (head != expected + 1) {
                                problems.add(writer + " got head " + head);
                            }
                            winners.computeIfAbsent(expected + 1, k -> new ArrayList<>()).add(writer);
                        } catch (VersionConflictException conflict) {
                            if (conflict.actual() != expected + 1) {
                                problems.add(writer + ": " + conflict.getMessage());
                            }
                        } catch (RuntimeException other) {
                            problems.add(writer + " round " + round + ": " + other);
                        }
                        barrier.await(60, TimeUnit.SECONDS);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(300, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        try {
            assertThat(problems).isEmpty();
            assertThat(winners).hasSize(ROUNDS);
            assertThat(winners.values()).allSatisfy(w -> assertThat(w).hasSize(1));
            List<StoredEvent> journal = stores.get(1).readOwn(key, 1, Long.MAX_VALUE);
            assertThat(journal.stream().map(StoredEvent::seq).toList())
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, 1 + ROUNDS).boxed().toList());
            for (StoredEvent e : journal.subList(1, journal.size())) {
                assertThat(e.commandId()).startsWith(winners.get(e.seq()).get(0) + "-r");
            }
            long retries = stores.stream().mapToLong(PostgresStateStore::retries).sum();
            if (serializable) {
                assertThat(retries).as("serialization failures met and retried").isPositive();
            }
        } finally {
            stores.forEach(PostgresStateStore::close);
        }
    }

    @ParameterizedTest(name = "serializable={0}")
    @ValueSource(booleans = {false, true})
    void ownersOfManyStoresRacingForAFreeLeaseGetItOnce(boolean serializable) throws Exception {
        String schema = PgStores.freshSchema("lease_race");
        String url = PgStores.url();
        List<PostgresStateStore> stores = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
            stores.add(PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema)
                    .withPoolSize(THREADS_PER_STORE).withSerializable(serializable)));
        }
        int threads = STORES * THREADS_PER_STORE;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 5; round++) {
                SessionKey key = new SessionKey("t", "contended-" + round);
                stores.get(0).create(StoreFixtures.root(key.id(), "t", "u"),
                        List.of(StoreFixtures.first(StoreFixtures.root(key.id(), "t", "u"))));
                CyclicBarrier barrier = new CyclicBarrier(threads);
                List<Future<LeaseResult>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    PostgresStateStore store = stores.get(t % STORES);
                    String owner = "owner-" + t;
                    futures.add(pool.submit(() -> {
                        barrier.await(60, TimeUnit.SECONDS);
                        return store.acquire(key, owner, Duration.ofMinutes(1), null);
                    }));
                }
                List<LeaseResult> results = new ArrayList<>();
                for (Future<LeaseResult> f : futures) {
                    results.add(f.get(120, TimeUnit.SECONDS));
                }
                List<Lease> won = results.stream().filter(r -> r instanceof LeaseResult.Acquired)
                        .map(r -> ((LeaseResult.Acquired) r).lease()).toList();
                assertThat(won).as("round %d", round).singleElement().satisfies(l -> assertThat(l.epoch()).isEqualTo(1));
                assertThat(results).filteredOn(r -> r instanceof LeaseResult.Held).hasSize(threads - 1)
                        .allSatisfy(r -> assertThat(((LeaseResult.Held) r).current()).isEqualTo(won.get(0)));
                assertThat(stores.get(3).lease(key)).contains(won.get(0));
            }
        } finally {
            pool.shutdownNow();
            stores.forEach(PostgresStateStore::close);
        }
    }
}
