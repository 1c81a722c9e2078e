package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.RedisClusterProcesses;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.DuplicateCommandException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Writers on separate connections (one store instance each, as separate processes would have) race
 * for the same seqs of a few sessions, on a standalone server and on a cluster: exactly one wins each
 * seq, and each journal has no gap and no duplicate. Creates and forks race too: one create of an id
 * wins, and of forks carrying one command id exactly one branch exists afterwards.
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

    @Test
    void racingCreatesAndForksOnACluster() throws Exception {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start()) {
            List<RedisStateStore> stores = new ArrayList<>();
            try {
                for (int i = 0; i < WRITERS; i++) {
                    stores.add(RedisStateStore.open(cluster.url(), RedisStateStore.Options.defaults().withPrefix("forks")));
                }
                SessionInfo root = StoreFixtures.root("root");
                List<Object> roots = all(stores, s -> {
                    s.create(root, List.of(StoreFixtures.first(root)));
                    return "created";
                });
                assertThat(roots).filteredOn("created"::equals).hasSize(1);
                assertThat(roots).filteredOn(r -> r instanceof SessionExistsException).hasSize(WRITERS - 1);
                long epoch = ((LeaseResult.Acquired) stores.get(0).acquire(SessionKey.of(root), "w", Duration.ofMinutes(1), null))
                        .lease().epoch();
                stores.get(0).append(AppendRequest.of(SessionKey.of(root), 1, epoch, StoreFixtures.messages("root", 2, 2)));

                SessionInfo fork = StoreFixtures.branch(root, "fork", 2);
                List<Object> sameId = all(stores, s -> {
                    s.create(fork, List.of(StoreFixtures.first(fork)));
                    return "created";
                });
                assertThat(sameId).filteredOn("created"::equals).hasSize(1);
                assertThat(sameId).filteredOn(r -> r instanceof SessionExistsException).hasSize(WRITERS - 1);

                AtomicInteger n = new AtomicInteger();
                List<Object> sameCommand = all(stores, s -> {
                    SessionInfo other = StoreFixtures.branch(root, "other-" + n.incrementAndGet(), 3);
                    s.create(other, List.of(StoreFixtures.first(other)), new CommandRecord(SessionKey.of(root), "fork-cmd", "fork:3", 3, other.id()));
                    return other.id();
                });
                List<Object> winners = sameCommand.stream().filter(r -> r instanceof String).toList();
                assertThat(winners).hasSize(1);
                assertThat(sameCommand).filteredOn(r -> r instanceof DuplicateCommandException).hasSize(WRITERS - 1);

                RedisStateStore reader = stores.get(WRITERS - 1);
                assertThat(reader.branches(SessionKey.of(root))).containsExactlyInAnyOrder("fork", (String) winners.get(0));
                for (int i = 1; i <= WRITERS; i++) {
                    String id = "other-" + i;
                    assertThat(reader.session(new SessionKey(root.tenant(), id)).isPresent()).as(id).isEqualTo(id.equals(winners.get(0)));
                }
                assertThat(reader.command(SessionKey.of(root), "fork-cmd")).get().extracting(CommandRecord::result).isEqualTo(winners.get(0));
            } finally {
                stores.forEach(RedisStateStore::close);
            }
        }
    }

    /** Runs {@code op} on every store at once; each result is what it returned or the exception it threw. */
    private static List<Object> all(List<RedisStateStore> stores, java.util.function.Function<RedisStateStore, Object> op) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(stores.size());
        try {
            CyclicBarrier barrier = new CyclicBarrier(stores.size());
            List<Future<Object>> futures = new ArrayList<>();
            for (RedisStateStore s : stores) {
                futures.add(pool.submit(() -> {
                    barrier.await(60, TimeUnit.SECONDS);
                    try {
                        return op.apply(s);
                    } catch (RuntimeException e) {
                        return e;
                    }
                }));
            }
            List<Object> out = new ArrayList<>();
            for (Future<Object> f : futures) {
                out.add(f.get(120, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
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
