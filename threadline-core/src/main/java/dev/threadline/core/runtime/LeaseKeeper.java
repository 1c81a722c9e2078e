package dev.threadline.core.runtime;

import dev.threadline.core.LeaseHeldException;
import dev.threadline.core.LeaseLostException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.StorageException;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import dev.threadline.core.internal.log.Logs;
import org.slf4j.Logger;

/**
 * The leases this runtime holds, one per session it runs commands for. A command enters (taking the
 * lease, or waiting for another process to let it go, bounded by {@code wait}) and exits; the lease is
 * kept for {@code linger} after the last command so a busy session does not pay a store write per
 * command, renewed in the background while commands run, and released when idle or on close.
 *
 * <p>A lease is not kept for ever by a session that is never idle: once this runtime has held it for a
 * whole {@code ttl} without a break, the command that ends then releases it, and this runtime's next
 * command on the session waits a short {@linkplain #yieldFor yield} before taking it again, so another
 * process waiting for the session (its acquire polls at least every 50 ms) gets it. Without this, a
 * process whose commands for one session came closer together than the linger kept the session, and a
 * command of another process waited until its {@code wait} ran out and failed, however long that was.
 *
 * <p>A holder is provably gone when it is a process of this host that no longer runs (its pid is dead,
 * or now belongs to a process started at another time): its lease is taken at once instead of waiting
 * for it to expire. Thread-safe.
 */
final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logs.get(LeaseKeeper.class);
    /** How many sessions' released epochs are remembered (about a megabyte at most). */
    static final int RELEASED_CAPACITY = 10_000;

    private final StateStore store;
    private final Clock clock;
    private final Duration ttl;
    private final Duration wait;
    private final Duration linger;
    /**
     * Fractions of {@code ttl}, computed once ({@link Duration#dividedBy} divides as a BigDecimal, and these
     * are read at every command): a lease is reused while more than half is left, the cached state trusted
     * while more than a tenth is, and the ticker renews below two thirds.
     */
    private final Duration halfTtl;
    private final Duration tenthTtl;
    private final Duration twoThirdsTtl;
    /** How long a yielded lease is left for others before this runtime takes it again (see the class comment). */
    private final long yieldNanos;
    private final LeaseOwner owner;
    private final ConcurrentHashMap<SessionKey, Held> held = new ConcurrentHashMap<>();
    /**
     * The epoch of the lease this runtime last released, per session, until it enters the session again
     * (bounded, least recently used out; a session forgotten here is re-taken as a take-over, the safe side).
     */
    private final ReleasedEpochs released = new ReleasedEpochs(RELEASED_CAPACITY);
    private final ScheduledFuture<?> ticker;
    private volatile java.util.function.BiConsumer<SessionKey, String> onInterruptRequest = (k, r) -> { };

    /** One session's lease as this runtime holds it. Guarded by its own monitor; {@code lease} is read without it. */
    private static final class Held {
        volatile Lease lease;
        /** Why the lease went while a command held it (a renewal found it taken over), or null. */
        volatile LeaseLostException lost;
        int active;
        Instant idleSince;
        /**
         * When this runtime took the lease it holds (renewals keep it), or null; written just before
         * {@code lease}, whose volatile write publishes it.
         */
        Instant heldSince;
    }

    /**
     * What entering a command found. {@code fresh}: the lease was acquired now and another owner may have
     * held it since this runtime last did, so what the session holds may be another process's (a take-over).
     * Re-taking a lease this runtime released itself, with no acquisition by anyone else in between (the
     * store's epoch moved on by at most the one step of this acquisition), is not fresh: the session is as
     * this runtime left it, as if the lease had been kept. {@code previous}: whose lease it replaced, or null.
     */
    record Entry(boolean fresh, Lease previous) {}

    LeaseKeeper(StateStore store, Clock clock, Duration ttl, Duration wait, Duration linger, ScheduledExecutorService scheduler) {
        this.store = store;
        this.clock = clock;
        this.ttl = ttl;
        this.wait = wait;
        this.linger = linger;
        this.halfTtl = ttl.dividedBy(2);
        this.tenthTtl = ttl.dividedBy(10);
        this.twoThirdsTtl = ttl.multipliedBy(2).dividedBy(3);
        this.yieldNanos = yieldFor(ttl).toNanos();
        this.owner = LeaseOwner.current();
        long period = Math.max(10, ttl.toMillis() / 4);
        this.ticker = scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * How long a runtime leaves a session's lease to others after it gave the lease up for having held it a
     * whole {@code ttl}: long enough for a waiting process's acquire (which polls at least every 50 ms) to
     * come round twice, a tenth of the ttl when that is shorter, and at least 4 ms.
     */
    static Duration yieldFor(Duration ttl) {
        return Duration.ofMillis(Math.max(4, Math.min(100, ttl.toMillis() / 10)));
    }

    /**
     * Who hears of an interrupt another process requested for a session whose command runs here
     * (checked at each renewal tick); set once when the runtime is wired.
     */
    void onInterruptRequest(java.util.function.BiConsumer<SessionKey, String> listener) {
        this.onInterruptRequest = listener;
    }

    /** The lease this runtime holds for {@code key}, or null. */
    Lease held(SessionKey key) {
        Held h = held.get(key);
        return h == null ? null : h.lease;
    }

    /** This runtime's owner string. */
    String owner() {
        return owner.id();
    }

    /**
     * Takes the session's lease for one command (reusing the one held while it is not close to expiry).
     *
     * @throws LeaseHeldException       when another live process keeps it past the wait bound
     * @throws SessionNotFoundException when the session does not exist
     */
    Entry enter(SessionKey key) {
        Held h;
        while (true) {
            h = held.computeIfAbsent(key, k -> new Held());
            synchronized (h) {
                if (held.get(key) == h) { // not just retired by the ticker
                    h.active++;
                    break;
                }
            }
        }
        try {
            Lease current = h.lease;
            if (current != null && remaining(current).compareTo(halfTtl) > 0) {
                return new Entry(false, null);
            }
            if (current != null) {
                try {
                    h.lease = store.renew(current, ttl);
                    return new Entry(false, null);
                } catch (LeaseLostException e) {
                    h.lease = null;
                }
            }
            Released mine = released.take(key);
            LeaseResult.Acquired a = acquire(key, mine == null ? 0 : mine.yieldUntil());
            h.lost = null;
            h.heldSince = clock.instant(); // before the volatile write of the lease, which publishes it
            h.lease = a.lease();
            long epoch = a.lease().epoch();
            boolean resumed = mine != null && a.previous() == null && (epoch == mine.epoch() || epoch == mine.epoch() + 1);
            return new Entry(!resumed, resumed ? null : a.previous());
        } catch (RuntimeException e) {
            exit(key);
            throw e;
        }
    }

    /**
     * Ends a command: the lease stays for {@code linger}, then the ticker releases it; when it has been held
     * a whole {@code ttl}, it is released now and left to others for a {@linkplain #yieldFor yield}.
     */
    void exit(SessionKey key) {
        Held h = held.get(key);
        if (h == null) {
            return;
        }
        synchronized (h) {
            h.active--;
            Instant now = clock.instant();
            h.idleSince = now;
            Lease l = h.lease;
            if (h.active == 0 && l != null) {
                boolean heldLong = h.heldSince != null && !now.isBefore(h.heldSince.plus(ttl));
                if (heldLong || linger.isZero()) { // let others have it at once
                    h.lease = null;
                    retire(key, h, l, heldLong ? System.nanoTime() + yieldNanos : 0);
                }
            }
        }
    }

    /**
     * The epoch of the lease held for {@code key}: what appends carry.
     *
     * @throws LeaseLostException when the lease was taken over while the command ran
     */
    long epoch(SessionKey key) {
        Held h = held.get(key);
        Lease l = h == null ? null : h.lease;
        if (l == null) {
            if (h != null && h.lost != null) {
                throw copy(h.lost);
            }
            throw new IllegalStateException("session " + key + ": a write outside a command holding its lease");
        }
        return l.epoch();
    }

    /**
     * Makes sure the lease is still this runtime's before a command decides on a state it does not
     * trust (the lease is near or past expiry, e.g. after a stall): renews it.
     *
     * @throws LeaseLostException when another process took the session over meanwhile
     */
    void confirm(SessionKey key) {
        Held h = held.get(key);
        Lease l = h == null ? null : h.lease;
        if (l == null) {
            epoch(key); // throws the loss, or says there is no lease
            return;
        }
        try {
            h.lease = store.renew(l, ttl);
        } catch (LeaseLostException e) {
            h.lost = e;
            h.lease = null;
            throw e;
        }
    }

    private static LeaseLostException copy(LeaseLostException e) {
        return new LeaseLostException(e.sessionId(), e.epoch(), e.currentEpoch());
    }

    /** Whether the cached state of {@code key} can be trusted: this runtime holds an unexpired lease on it. */
    boolean trusts(SessionKey key) {
        Held h = held.get(key);
        Lease l = h == null ? null : h.lease;
        return l != null && remaining(l).compareTo(tenthTtl) > 0;
    }

    /** Fencing refused a write: the lease is gone; the next command acquires afresh. */
    void lost(SessionKey key, LeaseLostException why) {
        Held h = held.get(key);
        if (h != null) {
            h.lost = why;
            h.lease = null;
        }
    }

    /** Forgets a session (deleted). */
    void forget(SessionKey key) {
        held.remove(key);
        released.take(key);
    }

    /** Releases every lease held. Idempotent. */
    @Override
    public void close() {
        ticker.cancel(false);
        for (var e : held.entrySet()) {
            Lease l = e.getValue().lease;
            if (l != null) {
                releaseQuietly(l);
            }
        }
        held.clear();
    }

    /**
     * Acquires the lease, waiting up to {@code wait} for another holder; {@code yieldUntil} (a
     * {@link System#nanoTime} instant, 0 for none) is when a lease this runtime yielded may be taken again.
     */
    private LeaseResult.Acquired acquire(SessionKey key, long yieldUntil) {
        long deadline = System.nanoTime() + wait.toNanos();
        if (yieldUntil != 0) { // give a process waiting for the session the chance the yield is for
            long left;
            while ((left = Math.min(yieldUntil, deadline) - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
            }
        }
        long pause = 2_000_000L;
        while (true) {
            LeaseResult r = store.acquire(key, owner.id(), ttl, null);
            if (r instanceof LeaseResult.Acquired a) {
                return a;
            }
            Lease current = ((LeaseResult.Held) r).current();
            if (LeaseOwner.provablyGone(current.owner(), owner)) {
                LOG.info("session {}: taking the lease of {}, which no longer runs", key, LeaseOwner.describe(current.owner()));
                if (store.acquire(key, owner.id(), ttl, current.owner()) instanceof LeaseResult.Acquired a) {
                    return a;
                }
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new LeaseHeldException(key.id(), LeaseOwner.describe(current.owner()), current.expiresAt());
            }
            long untilExpiry = Math.max(1_000_000L, Duration.between(clock.instant(), current.expiresAt()).toNanos());
            LockSupport.parkNanos(Math.min(Math.min(pause, left), untilExpiry));
            pause = Math.min(pause * 2, 50_000_000L);
        }
    }

    /** Renews the leases of running commands; releases those idle past the linger. */
    private void tick() {
        Instant now = clock.instant();
        for (var e : held.entrySet()) {
            Held h = e.getValue();
            synchronized (h) {
                Lease l = h.lease;
                if (l == null) {
                    if (h.active == 0) {
                        held.remove(e.getKey(), h);
                    }
                    continue;
                }
                if (h.active > 0) {
                    pollInterrupt(e.getKey(), l);
                }
                if (h.active == 0 && h.idleSince != null && !now.isBefore(h.idleSince.plus(linger))) {
                    h.lease = null;
                    retire(e.getKey(), h, l, 0);
                } else if (remaining(l).compareTo(twoThirdsTtl) < 0) {
                    try {
                        h.lease = store.renew(l, ttl);
                    } catch (LeaseLostException lost) {
                        h.lost = lost;
                        h.lease = null;
                    } catch (SessionNotFoundException gone) {
                        h.lease = null;
                    } catch (RuntimeException fail) {
                        LOG.debug("session {}: lease renewal failed ({}); trying again", e.getKey(), fail.toString());
                    }
                }
            }
        }
    }

    private void pollInterrupt(SessionKey key, Lease l) {
        try {
            store.takeInterruptRequest(l).ifPresent(reason -> {
                LOG.info("session {}: another process asked to interrupt the running turn ({})", key, reason);
                onInterruptRequest.accept(key, reason);
            });
        } catch (RuntimeException fail) {
            LOG.debug("session {}: could not read interrupt requests ({})", key, fail.toString());
        }
    }

    /**
     * Releases an idle session's lease and retires its holder; the caller holds {@code h}'s monitor. The
     * release goes out before the holder leaves the map: a command entering meanwhile finds this holder,
     * waits on its monitor, and acquires only once the release is done. (Retired first, a new holder could
     * re-take the lease while the release was still out, and the release then cleared the lease that
     * command held: the store showed the session free while this runtime wrote on it.) {@code yieldUntil}:
     * see {@link #acquire}.
     */
    private void retire(SessionKey key, Held h, Lease l, long yieldUntil) {
        releaseQuietly(l);
        released.put(key, new Released(l.epoch(), yieldUntil));
        held.remove(key, h);
    }

    private void releaseQuietly(Lease l) {
        try {
            store.release(l);
        } catch (SessionNotFoundException | StorageException e) {
            LOG.debug("session {}: lease not released ({}); it expires by itself", l.key(), e.toString());
        }
    }

    private Duration remaining(Lease l) {
        return Duration.between(clock.instant(), l.expiresAt());
    }

    /**
     * A lease this runtime released: its epoch, and until when ({@link System#nanoTime}; 0 for no yield)
     * this runtime leaves it to others.
     */
    private record Released(long epoch, long yieldUntil) {}

    /** Session to the lease this runtime released; bounded, least recently used out. Thread-safe. */
    private static final class ReleasedEpochs {
        private final java.util.LinkedHashMap<SessionKey, Released> map;

        ReleasedEpochs(int capacity) {
            this.map = new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<SessionKey, Released> eldest) {
                    return size() > capacity;
                }
            };
        }

        synchronized void put(SessionKey key, Released r) {
            map.put(key, r);
        }

        /** The lease released for {@code key}, now forgotten, or null. */
        synchronized Released take(SessionKey key) {
            return map.remove(key);
        }
    }
}
