package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
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
import org.junit.jupiter.api.Test;

/**
 * Writers on separate connections (one store instance each, as separate processes would have) race
 * for the same seqs of a few sessions, on a standalone server and on a cluster: exactly one wins each
 * seq, and each journal has no gap and no duplicate.
 */
class RedisManyConnectionsTest {
    private static final int WRITERS = 8;
    private static final int ROUNDS = 30;
    private static final int SESSIONS = 3;

    @Test
    void oneWinnerPerSeqOnAStandaloneServer() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of())) {
            race(server.url());
        }
    }

    @Test
    void oneWinnerPerSeqOnACluster() throws Exception {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start()) {
            race(cluster.url());
        }
    }

    private static void race(String url) throws Exception {
        List<RedisStateStore> stores = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            for (int i = 0; i < WRITERS; i++) {
                stores.add(RedisStateStore.open(url, RedisStateStore.Options.defaults().withPrefix("race")));
            }
            List<SessionKey> keys = new ArrayList<>();
            for (int s = 0; s < SESSIONS; s++) {
                SessionInfo info = StoreFixtures.root("race-" + s);
                stores.get(0).create(info, List.of(StoreFixtures.first(info)));
                keys.add(SessionKey.of(info));
            }
            Map<SessionKey, Long> epochs = new ConcurrentHashMap<>();
            keys.forEach(k -> epochs.put(k, ((LeaseResult.Acquired) stores.get(0).acquire(k, "shared", Duration.ofMinutes(5), null))
                    .lease().epoch()));
            Map<String, List<Integer>> winners = new ConcurrentHashMap<>();
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            CyclicBarrier barrier = new CyclicBarrier(WRITERS);
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                RedisStateStore store = stores.get(w);
                futures.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        SessionKey key = keys.get(round % SESSIONS);
                        long expected = 1 + round / SESSIONS;
                        StoredEvent e = new StoredEvent(key.id(), expected + 1, expected + 1, StoreFixtures.T0, "w" + writer,
                                CheckpointSource.INPUT, new Event.UserMessageReceived(Message.user("from " + writer)));
                        barrier.await(60, TimeUnit.SECONDS);
                        try {
                            store.append(AppendRequest.of(key, expected, epochs.get(key), List.of(e)));
                            winners.computeIfAbsent(key.id() + "@" + (expected + 1), k -> new ArrayList<>()).add(writer);
                        } catch (VersionConflictException conflict) {
                            if (conflict.actual() != expected + 1) {
                                problems.add(conflict.getMessage());
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
            assertThat(problems).isEmpty();
            assertThat(winners).hasSize(ROUNDS).allSatisfy((seq, w) -> assertThat(w).as(seq).hasSize(1));
            for (SessionKey key : keys) {
                long head = stores.get(WRITERS - 1).head(key);
                assertThat(head).isEqualTo(1 + ROUNDS / SESSIONS);
                List<StoredEvent> journal = stores.get(WRITERS - 1).readOwn(key, 1, Long.MAX_VALUE);
                assertThat(journal.stream().map(StoredEvent::seq).toList())
                        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, head).boxed().toList());
                for (StoredEvent e : journal.subList(1, journal.size())) {
                    assertThat(e.commandId()).isEqualTo("w" + winners.get(key.id() + "@" + e.seq()).get(0));
                }
            }
        } finally {
            pool.shutdownNow();
            stores.forEach(RedisStateStore::close);
        }
    }
}
