package dev.threadline.store.redis;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Writers for failover tests: one thread per session appends one-event steps without pause through
 * whichever store is current ({@link #repoint}), and records every step the store acknowledged (its seq
 * and event). A failed call (the master gone, too few replicas) is an unknown outcome: the writer
 * re-reads the head and goes on from there. {@link #lost} then counts the acknowledged steps that the
 * journal read back does not hold as acknowledged (missing, or a later step written at their seq).
 * Thread-safe.
 */
final class AckedWriters implements AutoCloseable {
    /** One acknowledged step. */
    private record Acked(long seq, Event event) {
    }

    private final AtomicReference<StateStore> store;
    private final List<SessionKey> keys = new ArrayList<>();
    private final List<List<Acked>> acked = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>("none");
    private volatile boolean stop;

    /** Creates the sessions and takes their leases through {@code initial}; the writers wait for {@link #start}. */
    AckedWriters(StateStore initial, int sessions, String prefix) {
        store = new AtomicReference<>(initial);
        for (int i = 0; i < sessions; i++) {
            SessionKey key = new SessionKey("acme", prefix + i);
            SessionInfo info = StoreFixtures.root(key.id(), "acme", "u");
            initial.create(info, List.of(StoreFixtures.first(info)));
            long epoch = ((LeaseResult.Acquired) initial.acquire(key, "w", Duration.ofHours(1), null)).lease().epoch();
            List<Acked> mine = new ArrayList<>();
            keys.add(key);
            acked.add(mine);
            Thread t = new Thread(() -> write(key, epoch, mine), "writer-" + key.id());
            threads.add(t);
        }
    }

    /**
     * Starts the writers. A test without replicated acknowledgements first waits for its replica to hold
     * the sessions and leases made by the constructor: a failover that lost those would leave the writers
     * nothing to write to.
     */
    AckedWriters start() {
        threads.forEach(Thread::start);
        return this;
    }

    private void write(SessionKey key, long epoch, List<Acked> mine) {
        long head = 1;
        int n = 0;
        while (!stop) {
            StateStore s = store.get();
            StoredEvent e = StoreFixtures.user(key.id(), head + 1, key.id() + " step " + n++);
            try {
                head = s.append(AppendRequest.of(key, head, epoch, List.of(e)));
                synchronized (mine) {
                    mine.add(new Acked(head, e.event()));
                }
                count.incrementAndGet();
            } catch (VersionConflictException c) {
                head = c.actual();
            } catch (ThreadlineException f) {
                failures.incrementAndGet();
                lastFailure.set(key.id() + ": " + f);
                LockSupport.parkNanos(Duration.ofMillis(2).toNanos()); // back off while the master is gone
                try {
                    head = s.head(key);
                } catch (ThreadlineException stillDown) {
                    // the next round tries again
                }
            } catch (RuntimeException other) {
                lastFailure.set(key.id() + " died: " + other);
                throw other;
            } finally {
                attempts.incrementAndGet();
            }
        }
    }

    /** Makes the writers use {@code next} from their next step on; returns the store they used before. */
    StateStore repoint(StateStore next) {
        return store.getAndSet(next);
    }

    /** Waits (a bounded poll) until the writers have had {@code n} more steps acknowledged. */
    void awaitMore(long n) {
        long target = count.get() + n;
        try {
            RedisProcess.waitFor(() -> count.get() >= target, n + " more acknowledged steps");
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + " (" + count.get() + " acknowledged, " + attempts.get()
                    + " appends, " + failures.get() + " failed; last failure: " + lastFailure.get() + ")", e);
        }
    }

    /** Waits (a bounded poll) until the writers have finished {@code n} more appends, acknowledged or not. */
    void awaitAttempts(long n) {
        long target = attempts.get() + n;
        RedisProcess.waitFor(() -> attempts.get() >= target, n + " more appends");
    }

    long acknowledged() {
        return count.get();
    }

    long failures() {
        return failures.get();
    }

    /** How many acknowledged steps the journals read through {@code from} do not hold as acknowledged. */
    long lost(StateStore from) {
        long lost = 0;
        for (int i = 0; i < keys.size(); i++) {
            SessionKey key = keys.get(i);
            List<StoredEvent> journal = from.readOwn(key, 1, Long.MAX_VALUE);
            synchronized (acked.get(i)) {
                for (Acked a : acked.get(i)) {
                    if (a.seq() > journal.size() || !journal.get((int) a.seq() - 1).event().equals(a.event())) {
                        lost++;
                    }
                }
            }
        }
        return lost;
    }

    /** Stops the writers and waits for them. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(30));
        }
    }
}
