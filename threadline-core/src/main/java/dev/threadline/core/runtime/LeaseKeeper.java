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
 * <p>A holder is provably gone when it is a process of this host that no longer runs (its pid is dead,
 * or now belongs to a process started at another time): its lease is taken at once instead of waiting
 * for it to expire. Thread-safe.
 */
final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logs.get(LeaseKeeper.class);

    private final StateStore store;
    private final Clock clock;
    private final Duration ttl;
    private final Duration wait;
    private final Duration linger;
    private final LeaseOwner owner;
    private final ConcurrentHashMap<SessionKey, Held> held = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> ticker;
    private volatile java.util.function.BiConsumer<SessionKey, String> onInterruptRequest = (k, r) -> { };

    /** One session's lease as this runtime holds it. Guarded by its own monitor; {@code lease} is read without it. */
    private static final class Held {
        volatile Lease lease;
        /** Why the lease went while a command held it (a renewal found it taken over), or null. */
        volatile LeaseLostException lost;
        int active;
        Instant idleSince;
    }

    /** What entering a command found: whether the lease was (re)acquired now, and whose lease it replaced. */
    record Entry(boolean fresh, Lease previous) {}

    LeaseKeeper(StateStore store, Clock clock, Duration ttl, Duration wait, Duration linger, ScheduledExecutorService scheduler) {
        this.store = store;
        this.clock = clock;
        this.ttl = ttl;
        this.wait = wait;
        this.linger = linger;
        this.owner = LeaseOwner.current();
        long period = Math.max(10, ttl.toMillis() / 4);
        this.ticker = scheduler.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
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
            if (current != null && remaining(current).compareTo(ttl.dividedBy(2)) > 0) {
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
            LeaseResult.Acquired a = acquire(key);
            h.lost = null;
            h.lease = a.lease();
            return new Entry(true, a.previous());
        } catch (RuntimeException e) {
            exit(key);
            throw e;
        }
    }

    /** Ends a command: the lease stays for {@code linger}, then the ticker releases it. */
    void exit(SessionKey key) {
        Held h = held.get(key);
        if (h == null) {
            return;
        }
        synchronized (h) {
            h.active--;
            h.idleSince = clock.instant();
            Lease l = h.lease;
            if (h.active == 0 && linger.isZero() && l != null) { // no linger: let others have it at once
                h.lease = null;
                held.remove(key, h);
                releaseQuietly(l);
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
        return l != null && remaining(l).compareTo(ttl.dividedBy(10)) > 0;
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

    private LeaseResult.Acquired acquire(SessionKey key) {
        long deadline = System.nanoTime() + wait.toNanos();
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
                    held.remove(e.getKey(), h);
                    releaseQuietly(l);
                } else if (remaining(l).compareTo(ttl.multipliedBy(2).dividedBy(3)) < 0) {
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
}
