package dev.threadline.core.internal.engine.live;

import dev.threadline.core.error.Require;
import dev.threadline.core.runtime.LiveSessions;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one owner of what this runtime has live, per session: a {@link LiveSession} holds the session's
 * mailbox, write lock, lease, running turn and pending deliveries. The runner, the lease keeper, the
 * state manager, the loop and the listeners all work on these entries; nothing else keeps a registry
 * of sessions. An entry lives while something pins it (see {@link LiveSession}). The counts behind
 * {@link LiveSessions} are kept here as they change. Thread-safe.
 */
public final class LiveRegistry {
    private final ConcurrentHashMap<SessionKey, LiveSession> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;
    private final AtomicInteger runningTurns = new AtomicInteger();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicInteger busyMailboxes = new AtomicInteger();
    /** Callers of {@link LiveSessions#awaitQuiet}, completed when no mailbox is busy. Guarded by itself. */
    private final List<CompletableFuture<Boolean>> quietWaiters = new ArrayList<>();
    private final LiveSessions view = new View();

    /** {@code scheduler} bounds {@link LiveSessions#awaitQuiet}. */
    public LiveRegistry(ScheduledExecutorService scheduler) {
        this.scheduler = Require.nonNull(scheduler, "scheduler");
    }

    /** The session's entry, made if needed, pinned: it stays until the caller {@link #unpin}s it. */
    public LiveSession pin(SessionKey key) {
        return sessions.compute(key, (k, s) -> {
            LiveSession e = s == null ? new LiveSession(k) : s;
            e.pins++;
            return e;
        });
    }

    /** Gives back one pin of {@code entry}; the last one takes it out of the registry. */
    public void unpin(LiveSession entry) {
        sessions.computeIfPresent(entry.key(), (k, e) -> {
            if (e != entry) {
                throw new IllegalStateException("session " + k + ": unpinning an entry that is no longer registered");
            }
            return --e.pins == 0 ? null : e;
        });
    }

    /**
     * Takes the session's write lock, waiting for it, and pins its entry meanwhile; pair with
     * {@link #unlockWrites}. Sessions never share a lock: one session's write never waits for another's.
     */
    public LiveSession lockWrites(SessionKey key) {
        LiveSession e = pin(key);
        try {
            e.writeLock().lock();
        } catch (RuntimeException | Error t) {
            unpin(e);
            throw t;
        }
        return e;
    }

    /**
     * Releases the write lock this thread holds on {@code entry}'s session.
     *
     * @throws IllegalMonitorStateException when this thread does not hold it (nothing changes)
     */
    public void unlockWrites(LiveSession entry) {
        if (!entry.writeLock().isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("session " + entry.key() + " is not locked by this thread");
        }
        entry.writeLock().unlock();
        unpin(entry);
    }

    /** The session's entry, or null when nothing is live for it. Pins nothing: a moment's reading. */
    public LiveSession find(SessionKey key) {
        return sessions.get(key);
    }

    /**
     * The entry of a session a caller holds a pin on (a command in its mailbox, say).
     *
     * @throws IllegalStateException when nothing is live for the session: the caller broke the rule
     */
    public LiveSession pinned(SessionKey key, String what) {
        LiveSession e = sessions.get(key);
        if (e == null) {
            throw new IllegalStateException("session " + key + ": " + what + " outside a command of the session");
        }
        return e;
    }

    /** Every entry now (weakly consistent). */
    public Collection<LiveSession> all() {
        return sessions.values();
    }

    /**
     * Records that {@code control}'s turn runs for the session (its command pins the entry).
     *
     * @throws IllegalStateException when a turn of the session runs here already
     */
    public void startTurn(SessionKey key, TurnControl control) {
        if (!pinned(key, "a turn").startTurn(control)) {
            throw new IllegalStateException("session " + key + " already runs a turn here; submit through its mailbox");
        }
        runningTurns.incrementAndGet();
    }

    /** Records that {@code control}'s turn ended. */
    public void endTurn(SessionKey key, TurnControl control) {
        LiveSession e = sessions.get(key);
        if (e != null && e.endTurn(control)) {
            runningTurns.decrementAndGet();
        }
    }

    /** Whether this runtime runs a turn of the session now. */
    public boolean runs(SessionKey key) {
        LiveSession e = sessions.get(key);
        return e != null && e.turn() != null;
    }

    /** Asks the turn this runtime runs for the session to stop; false when none runs here. */
    public boolean interrupt(SessionKey key, String reason) {
        LiveSession e = sessions.get(key);
        TurnControl c = e == null ? null : e.turn();
        if (c == null) {
            return false;
        }
        c.interrupt(reason);
        return true;
    }

    /** One more command waits in a mailbox (+1) or one left the queue to run (-1). */
    void queued(int delta) {
        queued.addAndGet(delta);
    }

    /** A mailbox started running commands (+1) or ran out of them (-1). */
    void busy(int delta) {
        if (busyMailboxes.addAndGet(delta) == 0) {
            synchronized (quietWaiters) {
                if (busyMailboxes.get() == 0) {
                    quietWaiters.forEach(f -> f.complete(true));
                    quietWaiters.clear();
                }
            }
        }
    }

    /** The read-only face of this registry, for the runtime's users. */
    public LiveSessions view() {
        return view;
    }

    private final class View implements LiveSessions {
        @Override
        public int sessions() {
            return sessions.size();
        }

        @Override
        public int runningTurns() {
            return runningTurns.get();
        }

        @Override
        public int queuedCommands() {
            return queued.get();
        }

        @Override
        public boolean awaitQuiet(Duration timeout) {
            Require.argument(timeout != null && !timeout.isNegative(), "timeout", "must not be negative, was " + timeout);
            CompletableFuture<Boolean> quiet = new CompletableFuture<>();
            synchronized (quietWaiters) {
                if (busyMailboxes.get() == 0) {
                    return true;
                }
                quietWaiters.add(quiet);
            }
            ScheduledFuture<?> bound = scheduler.schedule(() -> quiet.complete(false), timeout.toNanos(), TimeUnit.NANOSECONDS);
            try {
                return quiet.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException e) {
                return false;
            } finally {
                bound.cancel(false);
                synchronized (quietWaiters) {
                    quietWaiters.remove(quiet);
                }
            }
        }

        @Override
        public int interruptAll(String reason) {
            Require.nonBlank(reason, "reason");
            int n = 0;
            for (LiveSession e : sessions.values()) {
                TurnControl c = e.turn();
                if (c != null) {
                    c.interrupt(reason);
                    n++;
                }
            }
            return n;
        }
    }
}
