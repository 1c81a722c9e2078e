package dev.threadline.bench.server;

import dev.threadline.bench.kit.JitWarmUp;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.testkit.RawSteps;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The store side of {@link TurnCost}: sessions prefilled quickly to a size (the benchmark's conversation,
 * {@link BenchMessage}, in steps of 500 messages through the session's command gate), the store's own
 * step at that size (one message appended straight to the store on a session of the same size, leased by
 * hand: no runtime), and a store wrapped so that the wall time spent inside its {@code append} is summed.
 * Not thread-safe; one run at a time.
 */
final class TurnCostSessions {
    /** Messages per prefill step: 50,000 messages are 100 steps. */
    static final int PREFILL_STEP = 500;

    private TurnCostSessions() {}

    /** {@code n} rounded up to whole turns of the conversation (four messages), so a prefilled session is between turns. */
    static int wholeTurns(int n) {
        return Math.max(4, (n + 3) / 4 * 4);
    }

    /** A new session {@code id} of {@code length} messages ({@link #wholeTurns} of them). */
    static Session prefill(Threadline tl, String id, int length) {
        Session s = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
        for (int from = 0; from < length; from += PREFILL_STEP) {
            List<Event> batch = new ArrayList<>();
            for (BenchMessage m : BenchMessage.range(from, Math.min(length, from + PREFILL_STEP))) {
                batch.addAll(m.toEvents());
            }
            RawSteps.update(s, state -> batch);
        }
        return s;
    }

    /** {@code store} behind a proxy that adds the wall nanoseconds of every {@code append} to {@code inAppend}. */
    static StateStore timed(StateStore store, AtomicLong inAppend) {
        return (StateStore) Proxy.newProxyInstance(TurnCostSessions.class.getClassLoader(), new Class<?>[] {StateStore.class},
                (proxy, method, a) -> {
                    boolean append = method.getName().equals("append");
                    long t0 = append ? System.nanoTime() : 0;
                    try {
                        return method.invoke(store, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        if (append) {
                            inAppend.addAndGet(System.nanoTime() - t0);
                        }
                    }
                });
    }

    /** Untimed appends straight to {@code store} on a new session, until the JIT is quiet (at most {@code max}). */
    static JitWarmUp.Outcome warmUp(Threadline tl, StateStore store, int min, int max) throws Exception {
        Direct d = Direct.on(tl, store, "turn-cost-append-warm", 0);
        try {
            return JitWarmUp.run(min, max, i -> d.append());
        } finally {
            d.release();
        }
    }

    /** The wall microseconds of {@code rounds} appends of one message each, straight to {@code store}, on a session of {@code length}. */
    static long[] storeSteps(Threadline tl, StateStore store, int length, int rounds) {
        Direct d = Direct.on(tl, store, "turn-cost-append-" + length, length);
        try {
            long[] micros = new long[rounds];
            for (int i = 0; i < rounds; i++) {
                micros[i] = d.timedAppend();
            }
            return micros;
        } finally {
            d.release();
        }
    }

    /** A session written straight to the store under a lease taken by hand. */
    private static final class Direct {
        private final StateStore store;
        private final SessionKey key;
        private final long epoch;
        private long head;
        private long next;

        private Direct(StateStore store, SessionKey key, long epoch, long head, long next) {
            this.store = store;
            this.key = key;
            this.epoch = epoch;
            this.head = head;
            this.next = next;
        }

        static Direct on(Threadline tl, StateStore store, String id, int length) {
            prefill(tl, id, length);
            SessionKey key = new SessionKey(tl.defaultTenant().id(), id);
            long epoch = lease(store, key);
            return new Direct(store, key, epoch, store.head(key), length);
        }

        /** One message appended; returns the wall microseconds of the store's call alone (the events and ids made before). */
        long timedAppend() {
            List<StoredEvent> stored = events();
            long t0 = System.nanoTime();
            store.append(AppendRequest.of(key, head, epoch, stored));
            long took = (System.nanoTime() - t0) / 1000;
            head += stored.size();
            return took;
        }

        void append() {
            timedAppend();
        }

        private List<StoredEvent> events() {
            String command = UUID.randomUUID().toString();
            Instant now = Instant.now();
            List<StoredEvent> stored = new ArrayList<>();
            long seq = head;
            for (Event e : BenchMessage.at(next++).toEvents()) {
                seq++;
                stored.add(new StoredEvent(key.id(), seq, seq, now, command, CheckpointSource.LOOP, e));
            }
            return stored;
        }

        void release() {
            store.lease(key).ifPresent(store::release);
        }

        /** Leases the session, waiting (bounded) for the runtime's lease of the prefill to go. */
        private static long lease(StateStore store, SessionKey key) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (true) {
                if (store.acquire(key, "threadline-bench-turn-cost", Duration.ofHours(1), null) instanceof LeaseResult.Acquired a) {
                    return a.lease().epoch();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("session '" + key.id() + "' stayed leased by the runtime for 30 s");
                }
                LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
            }
        }
    }
}
