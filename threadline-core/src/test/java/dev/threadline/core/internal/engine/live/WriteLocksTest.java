package dev.threadline.core.internal.engine.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.SessionKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The live registry's per-session write lock (it replaced {@code SessionLocks}). Regression: the lock was one of 256 stripes chosen by the key's
 * hash, so sessions whose keys fell into one stripe waited for each other's store writes (thread dumps
 * of the PostgreSQL benchmark's 256 sessions showed about 40 % of the session threads waiting so).
 */
class WriteLocksTest {
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @org.junit.jupiter.api.AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** Two keys whose hashes fall into one of 256 stripes. */
    private static SessionKey[] collidingKeys() {
        SessionKey first = new SessionKey("t", "s0");
        for (int i = 1; ; i++) {
            SessionKey other = new SessionKey("t", "s" + i);
            if (Math.floorMod(other.hashCode(), 256) == Math.floorMod(first.hashCode(), 256)) {
                return new SessionKey[] {first, other};
            }
        }
    }

    @Test
    void twoSessionsWhoseKeysFellIntoOneOf256StripesDoNotWaitForEachOther() throws Exception {
        LiveRegistry locks = new LiveRegistry(scheduler);
        SessionKey[] keys = collidingKeys();
        LiveSession first = locks.lockWrites(keys[0]);
        try {
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> locks.unlockWrites(locks.lockWrites(keys[1])));
            other.get(30, TimeUnit.SECONDS); // would wait for keys[0]'s unlock, which comes after this
        } finally {
            locks.unlockWrites(first);
        }
        assertThat(locks.all().size()).as("no lock kept once nobody holds or waits for it").isZero();
    }

    @Test
    void oneSessionsStepsStillExcludeEachOther() throws Exception {
        LiveRegistry locks = new LiveRegistry(scheduler);
        SessionKey key = new SessionKey("t", "s");
        CountDownLatch waiting = new CountDownLatch(1);
        LiveSession held = locks.lockWrites(key);
        CompletableFuture<Void> second;
        try {
            second = CompletableFuture.runAsync(() -> {
                waiting.countDown();
                locks.unlockWrites(locks.lockWrites(key));
            });
            assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(second).as("the second step waits while the first holds the session").isNotDone();
            assertThat(locks.all().size()).isEqualTo(1);
        } finally {
            locks.unlockWrites(held);
        }
        second.get(30, TimeUnit.SECONDS);
        assertThat(locks.all().size()).isZero();
    }

    @Test
    void unlockingASessionThisThreadDoesNotHoldIsRefusedAndChangesNothing() {
        LiveRegistry locks = new LiveRegistry(scheduler);
        SessionKey key = new SessionKey("t", "s");
        LiveSession entry = locks.pin(key);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> locks.unlockWrites(entry))
                .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("not locked by this thread");
        assertThat(locks.all()).as("the refused unlock took no pin away").containsExactly(entry);
        locks.unpin(entry);
        assertThat(locks.all()).isEmpty();
    }
}
