package dev.threadline.core.internal.engine.live;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.error.LeaseHeldException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.log.Logs;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.Leases;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.function.BiConsumer;
import org.slf4j.Logger;

/**
 * The leases this runtime holds, one per session it runs commands for, kept in each session's
 * {@link LeaseSlot} in the {@link LiveRegistry}. A command enters (taking the lease, or waiting for
 * another process to let it go, bounded by {@code wait}) and exits; the lease is kept for
 * {@code linger} after the last command so a busy session does not pay a store write per command,
 * renewed in the background while commands run, and released when idle or on close.
 *
 * <p>A lease is not kept for ever by a session that is never idle: once this runtime has held it for a
 * whole {@code ttl} without a break, the command that ends then releases it, and this runtime's next
 * command on the session waits a short {@linkplain LeaseTimes#yieldFor yield} before taking it again, so
 * another process waiting for the session (its acquire polls at least every 50 ms) gets it. Without this,
 * a process whose commands for one session came closer together than the linger kept the session, and
 * a command of another process waited until its {@code wait} ran out and failed, however long that was.
 *
 * <p>A holder is provably gone when it is a process of this host that no longer runs (its pid is dead,
 * or now belongs to a process started at another time): its lease is taken at once instead of waiting
 * for it to expire. Every deadline is read from the runtime's clock and every wait is carried out by
 * its scheduler ({@link Waits}). Thread-safe.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logs.get(LeaseKeeper.class);

    private final Leases store;
    private final LiveRegistry registry;
    private final Waits waits;
    private final LeaseTimes times;
    private final LeaseOwner owner;
    /** The epochs of the leases this runtime released (see {@link ReleasedEpochs}). */
    private final ReleasedEpochs released = new ReleasedEpochs(ReleasedEpochs.CAPACITY);
    private final ScheduledFuture<?> ticker;
    private volatile BiConsumer<SessionKey, String> onInterruptRequest = (k, r) -> { };

    /**
     * What entering a command found. {@code fresh}: the lease was acquired now and another owner may have
     * held it since this runtime last did, so what the session holds may be another process's (a take-over).
     * Re-taking a lease this runtime released itself, with no acquisition by anyone else in between (the
     * store's epoch moved on by at most the one step of this acquisition), is not fresh: the session is as
     * this runtime left it, as if the lease had been kept. {@code previous}: whose lease it replaced, or null.
     */
    public record Entry(boolean fresh, Lease previous) {}

    public LeaseKeeper(Leases store, LiveRegistry registry, Waits waits, LeaseTimes times) {
        this.store = store;
        this.registry = registry;
        this.waits = waits;
        this.times = times;
        this.owner = LeaseOwner.current();
        this.ticker = waits.every(times.tickPeriod(), this::tick);
    }

    /**
     * Who hears of an interrupt another process requested for a session whose command runs here
     * (checked at each renewal tick); set once when the runtime is wired.
     */
    public void onInterruptRequest(BiConsumer<SessionKey, String> listener) {
        this.onInterruptRequest = listener;
    }

    /** This runtime's owner string. */
    public String owner() {
        return owner.id();
    }

    /**
     * Takes the session's lease for one command (reusing the one held while it is not close to expiry).
     *
     * @throws LeaseHeldException       when another live process keeps it past the wait bound
     * @throws SessionNotFoundException when the session does not exist
     */
    public Entry enter(SessionKey key) {
        LiveSession e = registry.pin(key);
        LeaseSlot s = e.lease;
        boolean keepPin;
        synchronized (s) {
            s.active++;
            keepPin = !s.pinned;
            s.pinned = true;
        }
        if (!keepPin) {
            registry.unpin(e); // the slot holds the entry already
        }
        try {
            Lease current = s.lease;
            if (current != null && waits.until(current.expiresAt()).compareTo(times.half()) > 0) {
                return new Entry(false, null);
            }
            if (current != null) {
                try {
                    s.lease = store.renew(current, times.ttl());
                    CrashPoint.LEASE_AFTER_RENEW.reach();
                    return new Entry(false, null);
                } catch (LeaseLostException lost) {
                    s.lease = null;
                }
            }
            ReleasedEpochs.Released mine = released.take(key);
            LeaseResult.Acquired a = acquire(key, mine == null ? null : mine.yieldUntil());
            if (a.previous() != null) {
                CrashPoint.LEASE_AFTER_TAKE_OVER.reach();
            }
            s.lost = null;
            s.heldSince = waits.now(); // before the volatile write of the lease, which publishes it
            s.lease = a.lease();
            long epoch = a.lease().epoch();
            boolean resumed = mine != null && a.previous() == null && (epoch == mine.epoch() || epoch == mine.epoch() + 1);
            return new Entry(!resumed, resumed ? null : a.previous());
        } catch (RuntimeException fail) {
            exit(key);
            throw fail;
        }
    }

    /**
     * Ends a command: the lease stays for {@code linger}, then the ticker releases it; when it has been held
     * a whole {@code ttl}, it is released now and left to others for a {@linkplain LeaseTimes#yieldFor yield}.
     */
    public void exit(SessionKey key) {
        LiveSession e = registry.find(key);
        if (e == null) {
            return;
        }
        LeaseSlot s = e.lease;
        boolean unpin;
        synchronized (s) {
            s.active--;
            Instant now = waits.now();
            s.idleSince = now;
            Lease l = s.lease;
            if (s.active == 0 && l != null) {
                boolean heldLong = s.heldSince != null && !now.isBefore(s.heldSince.plus(times.ttl()));
                if (heldLong || times.linger().isZero()) { // let others have it at once
                    s.lease = null;
                    release(key, l, heldLong ? now.plus(times.yield()) : null);
                }
            }
            unpin = quiet(s);
        }
        if (unpin) {
            registry.unpin(e);
        }
    }

    /** Whether the slot has nothing left (no lease, no command): it then gives up its pin, which the caller unpins. */
    private static boolean quiet(LeaseSlot s) {
        if (s.pinned && s.active == 0 && s.lease == null) {
            s.pinned = false;
            return true;
        }
        return false;
    }

    /**
     * The epoch of the lease held for {@code key}: what appends carry.
     *
     * @throws LeaseLostException when the lease was taken over while the command ran
     */
    public long epoch(SessionKey key) {
        LeaseSlot s = slot(key);
        Lease l = s == null ? null : s.lease;
        if (l == null) {
            if (s != null && s.lost != null) {
                throw copy(s.lost);
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
    public void confirm(SessionKey key) {
        LeaseSlot s = slot(key);
        Lease l = s == null ? null : s.lease;
        if (l == null) {
            epoch(key); // throws the loss, or says there is no lease
            return;
        }
        try {
            s.lease = store.renew(l, times.ttl());
            CrashPoint.LEASE_AFTER_RENEW.reach();
        } catch (LeaseLostException e) {
            s.lost = e;
            s.lease = null;
            throw e;
        }
    }

    private static LeaseLostException copy(LeaseLostException e) {
        return new LeaseLostException(e.sessionId(), e.epoch(), e.currentEpoch());
    }

    /** Whether the cached state of {@code key} can be trusted: this runtime holds an unexpired lease on it. */
    public boolean trusts(SessionKey key) {
        LeaseSlot s = slot(key);
        Lease l = s == null ? null : s.lease;
        return l != null && waits.until(l.expiresAt()).compareTo(times.tenth()) > 0;
    }

    /** Fencing refused a write: the lease is gone; the next command acquires afresh. */
    public void lost(SessionKey key, LeaseLostException why) {
        LeaseSlot s = slot(key);
        if (s != null) {
            s.lost = why;
            s.lease = null;
        }
    }

    /** Forgets a session (deleted): its lease went with it. */
    public void forget(SessionKey key) {
        released.take(key);
        LiveSession e = registry.find(key);
        if (e == null) {
            return;
        }
        boolean unpin;
        synchronized (e.lease) {
            e.lease.lease = null;
            unpin = quiet(e.lease);
        }
        if (unpin) {
            registry.unpin(e);
        }
    }

    /** Releases every lease held. Idempotent. */
    @Override
    public void close() {
        ticker.cancel(false);
        for (LiveSession e : registry.all()) {
            boolean unpin;
            synchronized (e.lease) {
                Lease l = e.lease.lease;
                if (l != null) {
                    e.lease.lease = null;
                    releaseQuietly(l);
                }
                unpin = quiet(e.lease);
            }
            if (unpin) {
                registry.unpin(e);
            }
        }
    }

    private LeaseSlot slot(SessionKey key) {
        LiveSession e = registry.find(key);
        return e == null ? null : e.lease;
    }

    /**
     * Acquires the lease, waiting up to {@code wait} for another holder; {@code yieldUntil} (null for none)
     * is when a lease this runtime yielded may be taken again.
     */
    private LeaseResult.Acquired acquire(SessionKey key, Instant yieldUntil) {
        Instant deadline = waits.now().plus(times.waitBound());
        try {
            if (yieldUntil != null) { // give a process waiting for the session the chance the yield is for
                waits.sleep(Duration.between(waits.now(), yieldUntil.isBefore(deadline) ? yieldUntil : deadline));
            }
            Duration pause = Duration.ofMillis(2);
            while (true) {
                switch (store.acquire(key, owner.id(), times.ttl(), null)) {
                    case LeaseResult.Acquired a -> {
                        return a;
                    }
                    case LeaseResult.Held held -> {
                        Lease current = held.current();
                        if (LeaseOwner.provablyGone(current.owner(), owner)) {
                            LOG.info("session {}: taking the lease of {}, which no longer runs", key, LeaseOwner.describe(current.owner()));
                            if (store.acquire(key, owner.id(), times.ttl(), current.owner()) instanceof LeaseResult.Acquired a) {
                                return a;
                            }
                            continue;
                        }
                        Duration left = waits.until(deadline);
                        if (left.isNegative() || left.isZero()) {
                            throw new LeaseHeldException(key.id(), LeaseOwner.describe(current.owner()), current.expiresAt());
                        }
                        Duration untilExpiry = LeaseTimes.atLeastAMillisecond(waits.until(current.expiresAt()));
                        waits.sleep(LeaseTimes.min(pause, left, untilExpiry));
                        pause = LeaseTimes.min(pause.multipliedBy(2), LeaseTimes.MAX_POLL, LeaseTimes.MAX_POLL);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LeaseHeldException(key.id(), "another process (the wait for its lease was interrupted)", waits.now());
        }
    }

    /** Renews the leases of running commands; releases those idle past the linger. */
    private void tick() {
        Instant now = waits.now();
        for (LiveSession e : registry.all()) {
            LeaseSlot s = e.lease;
            boolean unpin;
            synchronized (s) {
                if (!s.pinned) {
                    continue;
                }
                Lease l = s.lease;
                if (l != null && s.active > 0) {
                    pollInterrupt(e.key(), l);
                }
                if (l == null) {
                    unpin = quiet(s);
                } else if (s.active == 0 && s.idleSince != null && !now.isBefore(s.idleSince.plus(times.linger()))) {
                    s.lease = null;
                    release(e.key(), l, null);
                    unpin = quiet(s);
                } else {
                    if (Duration.between(now, l.expiresAt()).compareTo(times.twoThirds()) < 0) {
                        renewQuietly(e.key(), s, l);
                    }
                    unpin = false;
                }
            }
            if (unpin) {
                registry.unpin(e);
            }
        }
    }

    private void renewQuietly(SessionKey key, LeaseSlot s, Lease l) {
        try {
            s.lease = store.renew(l, times.ttl());
            CrashPoint.LEASE_AFTER_RENEW.reach();
        } catch (LeaseLostException lost) {
            s.lost = lost;
            s.lease = null;
        } catch (SessionNotFoundException gone) {
            s.lease = null;
        } catch (RuntimeException fail) {
            LOG.debug("session {}: lease renewal failed ({}); trying again", key, fail.toString());
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
     * Releases an idle session's lease; the caller holds the slot's monitor and has cleared the slot's
     * lease. The release goes out before the slot gives up its pin on the entry: a command entering
     * meanwhile finds this entry, waits on the slot's monitor, and acquires only once the release is done.
     * (Were the entry retired first, a new one could re-take the lease while the release was still out,
     * and the release then cleared the lease that command held: the store showed the session free while
     * this runtime wrote on it.) {@code yieldUntil}: see {@link #acquire}.
     */
    private void release(SessionKey key, Lease l, Instant yieldUntil) {
        releaseQuietly(l);
        released.put(key, new ReleasedEpochs.Released(l.epoch(), yieldUntil));
    }

    private void releaseQuietly(Lease l) {
        try {
            store.release(l);
        } catch (SessionNotFoundException | StorageException e) {
            LOG.debug("session {}: lease not released ({}); it expires by itself", l.key(), e.toString());
        }
    }
}
