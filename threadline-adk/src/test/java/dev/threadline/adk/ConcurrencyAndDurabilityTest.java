package dev.threadline.adk;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.Session;
import dev.threadline.core.Threadline;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ours: parallel appends on one session lose nothing; a second service on the same file sees everything. */
class ConcurrencyAndDurabilityTest {
    @TempDir
    Path dir;

    private static Event event(String id, Map<String, Object> delta) {
        return Event.builder().id(id).author("agent")
                .actions(EventActions.builder().stateDelta(new ConcurrentHashMap<>(delta)).build()).build();
    }

    @Test
    void parallelAppendsOnOneSessionAreAllKept() throws Exception {
        int threads = 4;
        int each = 10;
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("adk.db")))
                .leaseLinger(Duration.ZERO).build()) {
            ThreadlineSessionService service = new ThreadlineSessionService(tl);
            Session session = service.createSession("app", "ann", null, "shared").blockingGet();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < each; i++) {
                            service.appendEvent(session, event("t" + thread + "-" + i,
                                    Map.of("k" + thread, i, "user:last" + thread, i))).blockingGet();
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : done) {
                    f.get();
                }
            }
            Session read = service.getSession("app", "ann", "shared", Optional.empty()).blockingGet();
            assertThat(read.events()).hasSize(threads * each);
            assertThat(read.events()).extracting(Event::id).doesNotHaveDuplicates();
            assertThat(session.events()).hasSize(threads * each);
            for (int t = 0; t < threads; t++) {
                int thread = t;
                // each thread's events keep their order
                assertThat(read.events().stream().map(Event::id).filter(id -> id.startsWith("t" + thread + "-")))
                        .containsExactly(java.util.stream.IntStream.range(0, each).mapToObj(i -> "t" + thread + "-" + i)
                                .toArray(String[]::new));
                assertThat(read.state()).containsEntry("k" + t, each - 1).containsEntry("user:last" + t, each - 1);
            }
        }
    }

    @Test
    void aSecondServiceOnTheSameFileSeesTheSession() {
        Path db = dir.resolve("adk.db");
        try (Threadline first = Threadline.builder().store(SqliteStateStore.open(db)).leaseLinger(Duration.ZERO).build()) {
            ThreadlineSessionService service = new ThreadlineSessionService(first);
            Session session = service.createSession("app", "ann", Map.of("app:theme", "dark"), "kept").blockingGet();
            service.appendEvent(session, event("e1", Map.of("step", 1, "temp:scratch", "x"))).blockingGet();
            service.appendEvent(session, Event.builder().id("e2").author("user").timestamp(7000).build()).blockingGet();
        }
        try (Threadline second = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            ThreadlineSessionService service = new ThreadlineSessionService(second);
            Session read = service.getSession("app", "ann", "kept", Optional.empty()).blockingGet();
            assertThat(read).isNotNull();
            assertThat(read.events()).extracting(Event::id).containsExactly("e1", "e2");
            assertThat(read.state()).containsOnly(Map.entry("app:theme", "dark"), Map.entry("step", 1));
            assertThat(read.lastUpdateTime()).isEqualTo(java.time.Instant.ofEpochMilli(7000));
            assertThat(service.listSessions("app", "ann").blockingGet().sessionIds()).containsExactly("kept");
            assertThat(second.tenant("app").open("kept").history().journal().toString()).doesNotContain("scratch");
        }
    }
}
