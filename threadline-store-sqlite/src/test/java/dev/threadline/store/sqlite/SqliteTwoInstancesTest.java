package dev.threadline.store.sqlite;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.SessionQuery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
 * each seq.
 */
class SqliteTwoInstancesTest {
    private static final int ROUNDS = 20;

    @TempDir
    Path dir;

    @Test
    void eachSeesTheOthersWritesAndASecondAppendAtTheSameSeqConflicts() {
        Path file = dir.resolve("shared.db");
        try (SqliteStateStore a = SqliteStateStore.open(file); SqliteStateStore b = SqliteStateStore.open(file)) {
            a.create(root("s"), List.of(first(root("s"))));
            assertThat(b.head("s")).isEqualTo(1);
            assertThat(b.list(SessionQuery.all())).hasSize(1);

            assertThat(a.append("s", 1, List.of(user("s", 2, "from a")), List.of())).isEqualTo(2);
            try {
                b.append("s", 1, List.of(user("s", 2, "from b")), List.of());
                throw new AssertionError("b's append at a taken seq was accepted");
            } catch (VersionConflictException e) {
                assertThat(e.expected()).isEqualTo(1);
                assertThat(e.actual()).isEqualTo(2);
            }
            assertThat(b.readOwn("s", 2, 2)).singleElement().satisfies(e -> assertThat(e.commandId()).isEqualTo("cmd-s-2"));
            assertThat(b.readOwn("s", 1, 10)).isEqualTo(a.readOwn("s", 1, 10)).hasSize(2);
        }
    }

    @Test
    void racingInstancesHaveExactlyOneWinnerPerSeq() throws Exception {
        Path file = dir.resolve("race.db");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (SqliteStateStore a = SqliteStateStore.open(file); SqliteStateStore b = SqliteStateStore.open(file)) {
            a.create(root("s"), List.of(first(root("s"))));
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
                            store.append("s", expected, List.of(e), List.of());
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
            List<StoredEvent> journal = b.readOwn("s", 1, Long.MAX_VALUE);
            assertThat(journal.stream().map(StoredEvent::seq).toList())
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, ROUNDS + 1).boxed().toList());
            for (StoredEvent e : journal.subList(1, journal.size())) {
                assertThat(e.commandId()).isEqualTo((wonByA.contains(e.seq()) ? "a-" : "b-") + (e.seq() - 1));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
