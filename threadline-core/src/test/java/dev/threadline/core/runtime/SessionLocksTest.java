package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.SessionKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runtime's per-session step lock. Regression: the lock was one of 256 stripes chosen by the key's
 * hash, so sessions whose keys fell into one stripe waited for each other's store writes (thread dumps
 * of the PostgreSQL benchmark's 256 sessions showed about 40 % of the session threads waiting so).
 */
class SessionLocksTest {
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
        SessionLocks locks = new SessionLocks();
        SessionKey[] keys = collidingKeys();
        locks.lock(keys[0]);
        try {
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                locks.lock(keys[1]);
                locks.unlock(keys[1]);
            });
            other.get(30, TimeUnit.SECONDS); // would wait for keys[0]'s unlock, which comes after this
        } finally {
            locks.unlock(keys[0]);
        }
        assertThat(locks.size()).as("no lock kept once nobody holds or waits for it").isZero();
    }

    @Test
    void oneSessionsStepsStillExcludeEachOther() throws Exception {
        SessionLocks locks = new SessionLocks();
        SessionKey key = new SessionKey("t", "s");
        CountDownLatch waiting = new CountDownLatch(1);
        locks.lock(key);
        CompletableFuture<Void> second;
        try {
            second = CompletableFuture.runAsync(() -> {
                waiting.countDown();
                locks.lock(key);
                locks.unlock(key);
            });
            assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(second).as("the second step waits while the first holds the session").isNotDone();
            assertThat(locks.size()).isEqualTo(1);
        } finally {
            locks.unlock(key);
        }
        second.get(30, TimeUnit.SECONDS);
        assertThat(locks.size()).isZero();
    }

    @Test
    void unlockingASessionThisThreadDoesNotHoldIsRefusedAndChangesNothing() {
        SessionLocks locks = new SessionLocks();
        SessionKey key = new SessionKey("t", "s");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> locks.unlock(key))
                .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("not locked by this thread");
        assertThat(locks.size()).isZero();
    }
}
