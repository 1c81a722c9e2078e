package dev.threadline.core.runtime;

import dev.threadline.core.internal.engine.live.SessionRunner;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
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

    private void assertJournalDense(String id, long expectedHead) {
        List<StoredEvent> journal = tl.defaultTenant().open(id).history().journal();
        assertThat(journal).hasSize((int) expectedHead);
        for (int i = 0; i < journal.size(); i++) {
            assertThat(journal.get(i).seq()).isEqualTo(i + 1);
        }
    }
}
