package dev.threadline.store.postgres;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.*;
import org.junit.jupiter.api.Test;

/**
 * A measurement, not a test (its name matches no surefire pattern): 256 sessions, 16 one-message steps
 * each, through one store, with group commit off ({@code maxBatch} 1) and on (64), alternated over four
 * rounds; prints steps/s and the batches formed. Run it with
 * {@code ./test -q -pl threadline-store-postgres -am -Dtest=GroupCommitHarness -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class GroupCommitHarness {
    @Test
    void measure() throws Exception {
        for (int round = 0; round < 4; round++) {
            for (int maxBatch : new int[] {1, 64}) {
                String schema = PgStores.freshSchema("h");
                try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                        PostgresStateStore.Options.defaults().withSchema(schema).withMaxBatch(maxBatch));
                     ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                    int sessions = 256, steps = 16;
                    List<SessionKey> keys = new ArrayList<>(); List<Long> epochs = new ArrayList<>();
                    for (int i = 0; i < sessions; i++) { keys.add(new SessionKey("t", "s" + i)); epochs.add(PgStores.leasedSession(store, keys.get(i), 1, "w")); }
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<?>> fs = new ArrayList<>();
                    for (int i = 0; i < sessions; i++) {
                        SessionKey key = keys.get(i); long epoch = epochs.get(i);
                        fs.add(pool.submit(() -> { go.await(); for (long h = 1; h <= steps; h++) store.append(AppendRequest.of(key, h, epoch, StoreFixtures.messages(key.id(), h + 1, 1))); return null; }));
                    }
                    long t0 = System.nanoTime(); go.countDown();
                    for (Future<?> f : fs) f.get();
                    double s = (System.nanoTime() - t0) / 1e9;
                    long[] c = store.batcherCounts();
                    System.err.printf("maxBatch %d: %.0f steps/s, batches %d of %d steps%n", maxBatch, sessions * steps / s, c[0], c[1]);
                }
            }
        }
    }
}
