package dev.threadline.core.internal.engine.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A session's mailbox in the live registry: one command at a time, in arrival order (moved from ConcurrencyTest). */
class SessionRunnerTest {
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final LiveRegistry registry = new LiveRegistry(scheduler);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private static SessionKey key(String id) {
        return new SessionKey("t", id);
    }

    @Test
    void commandsOfOneSessionNeverInterleaveAndRunInArrivalOrder() throws Exception {
        SessionRunner runner = new SessionRunner(registry, Executors.newVirtualThreadPerTaskExecutor());
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Integer>> fs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int n = i;
            String session = "s" + (i % 4);
            fs.add(runner.submit(key(session), () -> {
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
        assertThat(registry.all()).as("no session left live").isEmpty();
    }

    @Test
    void inlineCallsAndQueuedCommandsOfOneSessionNeverOverlap() throws Exception {
        SessionRunner runner = new SessionRunner(registry, Executors.newVirtualThreadPerTaskExecutor());
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
                fs.add(pool.submit(() -> inline ? runner.call(key("s"), task) : runner.submit(key("s"), task).get()));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        }
        runner.close();
        assertThat(done.get()).isEqualTo(400);
        assertThat(maxRunning.get()).as("commands of one session at once").isEqualTo(1);
        assertThat(registry.all()).as("no session left live").isEmpty();
    }

    @Test
    void aCallMadeWhileACommandRunsWaitsForIt() throws Exception {
        SessionRunner runner = new SessionRunner(registry, Executors.newVirtualThreadPerTaskExecutor());
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> a = runner.submit(key("s"), () -> {
            started.countDown();
            release.await();
            log.add("A");
            return null;
        });
        started.await();
        CompletableFuture<Object> b = CompletableFuture.supplyAsync(() -> {
            try {
                return runner.call(key("s"), () -> log.add("B"));
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

}
