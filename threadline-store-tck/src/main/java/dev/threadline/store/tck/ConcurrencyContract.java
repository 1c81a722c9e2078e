package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
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
import org.junit.jupiter.api.Test;

/**
 * Many writers racing on one session: the expected-seq check lets exactly one of them win each seq
 * (even under one lease epoch), and of many owners racing for a free lease exactly one gets it.
 * JUnit makes an instance per test; the threads are the test's own.
 */
public abstract class ConcurrencyContract extends JournalContract {

    private static final int THREADS = 8;
    private static final int ROUNDS = 25;

    @Test
    public final void concurrentAppendersWithTheSameExpectedSeqHaveExactlyOneWinner() throws Exception {
        createRoot("race", 1);
        Map<Long, List<String>> winners = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String writer = "w" + t;
                futures.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        long expected = 1 + round;
                        StoredEvent e = new StoredEvent("race", expected + 1, expected + 1, StoreFixtures.T0,
                                writer + "-r" + round, CheckpointSource.INPUT,
                                new Event.UserMessageReceived(Message.user("from " + writer)));
                        barrier.await(60, TimeUnit.SECONDS);
                        try {
                            long head = append("race", expected, List.of(e));
                            if (head != expected + 1) {
                                problems.add(writer + " got head " + head + " for expected " + expected);
                            }
                            winners.computeIfAbsent(expected + 1, k -> new ArrayList<>()).add(writer);
                        } catch (VersionConflictException conflict) {
                            if (conflict.expected() != expected || conflict.actual() != expected + 1) {
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
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(problems).isEmpty();
        assertThat(winners).hasSize(ROUNDS);
        assertThat(winners.values()).allSatisfy(w -> assertThat(w).hasSize(1));
        assertThat(store.head(key("race"))).isEqualTo(1 + ROUNDS);
        List<StoredEvent> journal = store.readOwn(key("race"), 1, Long.MAX_VALUE);
        assertThat(seqs(journal)).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, 1 + ROUNDS).boxed().toList());
        for (StoredEvent e : journal.subList(1, journal.size())) {
            assertThat(e.commandId()).startsWith(winners.get(e.seq()).get(0) + "-r");
        }
    }

    @Test
    public final void ownersRacingForAFreeLeaseGetItOnceAndTheOthersSeeTheWinner() throws Exception {
        store.create(StoreFixtures.root("contended"), List.of(StoreFixtures.first(StoreFixtures.root("contended"))));
        SessionKey key = key("contended");
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<LeaseResult> results = new ArrayList<>();
        try {
            List<Future<LeaseResult>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                String owner = "owner-" + t;
                futures.add(pool.submit(() -> {
                    barrier.await(60, TimeUnit.SECONDS);
                    return store.acquire(key, owner, TTL, null);
                }));
            }
            for (Future<LeaseResult> f : futures) {
                results.add(f.get(120, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        List<Lease> won = results.stream().filter(r -> r instanceof LeaseResult.Acquired)
                .map(r -> ((LeaseResult.Acquired) r).lease()).toList();
        assertThat(won).singleElement().satisfies(l -> assertThat(l.epoch()).isEqualTo(1));
        assertThat(results).filteredOn(r -> r instanceof LeaseResult.Held).hasSize(THREADS - 1)
                .allSatisfy(r -> assertThat(((LeaseResult.Held) r).current()).isEqualTo(won.get(0)));
        assertThat(store.lease(key)).contains(won.get(0));
    }
}
