package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.store.InMemoryStateStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).snapshotEvery(50).build();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void thousandConcurrentIncrementsThroughTheStateManagerEndAtExactlyAThousand() throws Exception {
        tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                fs.add(pool.submit(() -> {
                    start.await();
                    return Engines.update(tl, "s1", CheckpointSource.EDIT, Counters.INCREMENT);
                }));
            }
            start.countDown();
            for (Future<?> f : fs) {
                f.get();
            }
        }
        assertThat(Counters.value(tl.defaultTenant().open("s1").state())).isEqualTo(1000);
        assertJournalDense("s1", 1001);
        Engines.evict(tl, "s1");
        assertThat(Counters.value(tl.defaultTenant().open("s1").state())).as("reloaded from snapshot + tail").isEqualTo(1000);
    }

    @Test
    void thousandConcurrentIncrementsThroughTheMailboxEndAtExactlyAThousand() throws Exception {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                fs.add(pool.submit(() -> Engines.update(s, Counters.INCREMENT)));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        }
        assertThat(Counters.value(s.state())).isEqualTo(1000);
        assertJournalDense("s1", 1001);
    }

    @Test
    void hundredSessionsUpdatedInParallelEachEndExactlyRight() throws Exception {
        int sessions = 100;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                Session s = tl.defaultTenant().create("s" + i, SessionConfig.DEFAULT);
                int times = 10 + i;
                for (int k = 0; k < times; k++) {
                    fs.add(pool.submit(() -> Engines.update(s, Counters.INCREMENT)));
                }
            }
            for (Future<?> f : fs) {
                f.get();
            }
        }
        for (int i = 0; i < sessions; i++) {
            assertThat(Counters.value(tl.defaultTenant().open("s" + i).state())).as("session s" + i).isEqualTo(10 + i);
            assertJournalDense("s" + i, 11 + i);
        }
    }

    @Test
    void commandsOfOneSessionNeverInterleaveAndRunInArrivalOrder() throws Exception {
        SessionRunner runner = new SessionRunner();
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int n = i;
            String session = "s" + (i % 4);
            fs.add(runner.submit(session, () -> {
                log.add(session + " start " + n);
                Thread.yield();
                log.add(session + " end " + n);
                return n;
            }));
        }
        for (CompletableFuture<Integer> f : fs) {
            f.get();
        }
        runner.close();
        for (int s = 0; s < 4; s++) {
            String prefix = "s" + s + " ";
            List<String> mine = log.stream().filter(l -> l.startsWith(prefix)).toList();
            List<String> expected = new ArrayList<>();
            for (int i = s; i < 200; i += 4) {
                expected.add(prefix + "start " + i);
                expected.add(prefix + "end " + i);
            }
            assertThat(mine).as("session s" + s + ": each command ends before the next starts, in submit order")
                    .containsExactlyElementsOf(expected);
        }
        assertThat(runner.activeSessions()).isZero();
    }

    @Test
    void inlineCallsAndQueuedCommandsOfOneSessionNeverOverlap() throws Exception {
        SessionRunner runner = new SessionRunner();
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger maxRunning = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Callable<Integer> task = () -> {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.yield();
            running.decrementAndGet();
            return done.incrementAndGet();
        };
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                boolean inline = i % 2 == 0;
                fs.add(pool.submit(() -> inline ? runner.call("s", task) : runner.submit("s", task).get()));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        }
        runner.close();
        assertThat(done.get()).isEqualTo(400);
        assertThat(maxRunning.get()).as("commands of one session at once").isEqualTo(1);
        assertThat(runner.activeSessions()).isZero();
    }

    @Test
    void aCallMadeWhileACommandRunsWaitsForIt() throws Exception {
        SessionRunner runner = new SessionRunner();
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> a = runner.submit("s", () -> {
            started.countDown();
            release.await();
            log.add("A");
            return null;
        });
        started.await();
        CompletableFuture<Object> b = CompletableFuture.supplyAsync(() -> {
            try {
                return runner.call("s", () -> log.add("B"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, Executors.newVirtualThreadPerTaskExecutor());
        release.countDown();
        a.get();
        b.get();
        runner.close();
        assertThat(log).containsExactly("A", "B");
    }

    private void assertJournalDense(String id, long expectedHead) {
        List<StoredEvent> journal = tl.defaultTenant().open(id).journal();
        assertThat(journal).hasSize((int) expectedHead);
        for (int i = 0; i < journal.size(); i++) {
            assertThat(journal.get(i).seq()).isEqualTo(i + 1);
        }
    }
}
