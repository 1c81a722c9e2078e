package dev.threadline.store.sqlite;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two store instances on one file, each with its own connections: as close to two processes as a
 * test gets in one JVM. SQLite's write lock and the expected-seq check let exactly one of them write
 * each seq, a lease taken through one fences the other's writer, and a waiter on one sees the other's
 * commits.
 */
class SqliteTwoInstancesTest {
    private static final int ROUNDS = 20;
    private static final SessionKey S = new SessionKey(SessionInfo.DEFAULT_TENANT, "s");
    private static final Duration TTL = Duration.ofMinutes(1);

    @TempDir
    Path dir;

    @Test
    void eachSeesTheOthersWritesAndASecondAppendAtTheSameSeqConflicts() {
        Path file = dir.resolve("shared.db");
        try (SqliteStateStore a = SqliteStateStore.open(file); SqliteStateStore b = SqliteStateStore.open(file)) {
            a.create(root("s"), List.of(first(root("s"))));
            assertThat(b.head(S)).isEqualTo(1);
            assertThat(b.list(SessionQuery.tenant(SessionInfo.DEFAULT_TENANT)).items()).hasSize(1);
            long epoch = epoch(a.acquire(S, "w", TTL, null));

            assertThat(a.append(AppendRequest.of(S, 1, epoch, List.of(user("s", 2, "from a"))))).isEqualTo(2);
            try {
                b.append(AppendRequest.of(S, 1, epoch, List.of(user("s", 2, "from b"))));
                throw new AssertionError("b's append at a taken seq was accepted");
            } catch (VersionConflictException e) {
                assertThat(e.expected()).isEqualTo(1);
                assertThat(e.actual()).isEqualTo(2);
            }
            assertThat(b.readOwn(S, 2, 2)).singleElement().satisfies(e -> assertThat(e.commandId()).isEqualTo("cmd-s-2"));
            assertThat(b.readOwn(S, 1, 10)).isEqualTo(a.readOwn(S, 1, 10)).hasSize(2);
        }
    }

    @Test
    void racingInstancesHaveExactlyOneWinnerPerSeq() throws Exception {
        Path file = dir.resolve("race.db");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (SqliteStateStore a = SqliteStateStore.open(file); SqliteStateStore b = SqliteStateStore.open(file)) {
            a.create(root("s"), List.of(first(root("s"))));
            long epoch = epoch(a.acquire(S, "w", TTL, null));
            CyclicBarrier barrier = new CyclicBarrier(2);
            List<Future<List<Long>>> results = new ArrayList<>();
            for (SqliteStateStore store : List.of(a, b)) {
                String name = store == a ? "a" : "b";
                Callable<List<Long>> writer = () -> {
                    List<Long> won = new ArrayList<>();
                    for (long expected = 1; expected <= ROUNDS; expected++) {
                        StoredEvent e = new StoredEvent("s", expected + 1, expected + 1, first(root("s")).time(),
                                name + "-" + expected, first(root("s")).source(), user("s", 1, "from " + name).event());
                        barrier.await(60, TimeUnit.SECONDS);
                        try {
                            store.append(AppendRequest.of(S, expected, epoch, List.of(e)));
                            won.add(expected + 1);
                        } catch (VersionConflictException conflict) {
                            assertThat(conflict.actual()).isEqualTo(expected + 1);
                        }
                    }
                    return won;
                };
                results.add(pool.submit(writer));
            }
            List<Long> wonByA = results.get(0).get(120, TimeUnit.SECONDS);
            List<Long> wonByB = results.get(1).get(120, TimeUnit.SECONDS);

            assertThat(wonByA).doesNotContainAnyElementsOf(wonByB);
            assertThat(wonByA.size() + wonByB.size()).isEqualTo(ROUNDS);
            List<StoredEvent> journal = b.readOwn(S, 1, Long.MAX_VALUE);
            assertThat(journal.stream().map(StoredEvent::seq).toList())
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, ROUNDS + 1).boxed().toList());
            for (StoredEvent e : journal.subList(1, journal.size())) {
                assertThat(e.commandId()).isEqualTo((wonByA.contains(e.seq()) ? "a-" : "b-") + (e.seq() - 1));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTakeoverThroughOneInstanceFencesTheWriterOfTheOther() {
        Path file = dir.resolve("fenced.db");
        try (SqliteStateStore a = SqliteStateStore.open(file); SqliteStateStore b = SqliteStateStore.open(file)) {
            a.create(root("s"), List.of(first(root("s"))));
            long epochOfA = epoch(a.acquire(S, "process-a", TTL, null));
            assertThat(b.acquire(S, "process-b", TTL, null)).isInstanceOf(LeaseResult.Held.class);

            long epochOfB = epoch(b.acquire(S, "process-b", TTL, "process-a")); // b proved a gone
            assertThat(epochOfB).isEqualTo(epochOfA + 1);
            assertThatThrownBy(() -> a.append(AppendRequest.of(S, 1, epochOfA, List.of(user("s", 2, "late")))))
                    .isInstanceOf(LeaseLostException.class);
            assertThat(b.append(AppendRequest.of(S, 1, epochOfB, List.of(user("s", 2, "b's"))))).isEqualTo(2);
            assertThat(a.readOwn(S, 2, 2)).singleElement().satisfies(e -> assertThat(e.commandId()).isEqualTo("cmd-s-2"));
        }
    }

    @Test
    void aWaiterOnOneInstanceSeesAnotherInstancesAppend() throws Exception {
        Path file = dir.resolve("tail.db");
        try (SqliteStateStore a = SqliteStateStore.open(file); SqliteStateStore b = SqliteStateStore.open(file)) {
            a.create(root("s"), List.of(first(root("s"))));
            long epoch = epoch(a.acquire(S, "w", TTL, null));
            FutureTask<Long> waiter = new FutureTask<>(() -> b.awaitHead(S, 1, Duration.ofMinutes(2)));
            Thread.ofPlatform().daemon().start(waiter);

            a.append(AppendRequest.of(S, 1, epoch, List.of(user("s", 2, "hello"))));
            assertThat(waiter.get(30, TimeUnit.SECONDS)).as("b polls for commits made elsewhere").isEqualTo(2);
        }
    }

    private static long epoch(LeaseResult r) {
        assertThat(r).isInstanceOf(LeaseResult.Acquired.class);
        return ((LeaseResult.Acquired) r).lease().epoch();
    }
}
