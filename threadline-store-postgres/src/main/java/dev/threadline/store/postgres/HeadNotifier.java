package dev.threadline.store.postgres;

import dev.threadline.core.store.SessionKey;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Tells followers, after an append has committed, that a session moved: the store hands the session's
 * key to {@link #hint} once its append has returned, and one thread of this store sends the hints
 * with {@code pg_notify} on a connection of its own (outside the pool, {@code synchronous_commit=off}:
 * a notification needs no durability). An append never notifies in its own transaction, because
 * PostgreSQL serialises every notifying commit on one lock of its notification queue, held through
 * the commit's WAL flush: notifying appends lose group commit, and with it the throughput of many
 * sessions at once.
 *
 * <p>Hints are coalesced: a key that comes at least {@link #MIN_GAP_NANOS} (5 ms) after the last send
 * began is sent at once; keys that arrive while a send is in flight, or within those 5 ms, are
 * gathered, without duplicates, and go together in the next send, one statement in one auto-commit
 * transaction. So a session at rest is told at once, and one busy session costs at most 200
 * notifications a second instead of one a step. A send is dear beside a step: a server transaction
 * and a round trip, CPU on both sides. On the benchmark's machine (2 cores), at one send a millisecond
 * (the gap until this version) this thread took 27 % of the JVM's CPU samples in {@code threadline
 * bench step-parts}, and its server process about 40 % of the CPU of the steps' own: CPU that the
 * steps beside it waited for, on two cores. Each key is its own {@code pg_notify} (the {@link HeadListener#payload}
 * form, what stores before the notifier sent, so their listeners still read it). The notifier can also pack several keys into one payload ({@link HintPayloads#SEPARATOR}-separated,
 * each payload under PostgreSQL's 8000-byte limit; the listener reads both); measured with 256
 * sessions appending at once, packing was no better (about 2 keys gather per send, sends being quick),
 * so one notification per key is the store's choice.
 *
 * <p>Nothing is sent while no one listens. A listener names its connection
 * ({@link HeadListener#applicationName}: one per schema) before it LISTENs; before a send the
 * notifier looks for such a connection in {@code pg_stat_activity}, of any process on the database.
 * None: the gathered hints are not sent (counted as {@link #unheard}), and hints then gather for
 * {@link #QUIET_GAP_NANOS} (50 ms) before it looks again, one query instead of up to ten sends.
 * Found: it sends, in the same statement as the look (one round trip, as a send alone), at the 5 ms
 * gap. A follower that starts listening is told of commits from then on within those 50 ms, and of those
 * before by its listener's first reading (a listener that goes live wakes every waiter to read the head). So
 * a store whose sessions no one follows, as in the benchmarks, costs the server a query every 50 ms at most.
 *
 * <p>A notification is a hint ("look again"), never a truth: waiters re-read the head after it, and
 * every {@link HeadListener#RECHECK_MS} ms without one. So a hint that is never sent only delays
 * followers, by at most that interval: when this process dies after an append commits and before
 * its hint goes out, when the notifier's connection is down (hints are then dropped, not queued, and
 * the thread reconnects with a growing pause of {@value #MIN_BACKOFF_MS} ms up to
 * {@value #MAX_BACKOFF_MS} ms), or when more than {@value #MAX_PENDING} sessions wait for one send.
 * {@link #hint} never blocks on the network and never throws, so it cannot delay or fail an append.
 * {@link #close} stops the thread (the store closes it). Thread-safe.
 */
final class HeadNotifier implements AutoCloseable {
    static final long MIN_BACKOFF_MS = 50;
    static final long MAX_BACKOFF_MS = 5000;
    /** The most distinct sessions gathered for one send; hints beyond are dropped (followers recheck). */
    static final int MAX_PENDING = 100_000;

    /** While the last look saw no listener: how long hints gather before the notifier looks again. */
    static final long QUIET_GAP_NANOS = 50_000_000L;

    private static final String SEND = "SELECT count(pg_notify('" + HeadListener.CHANNEL + "', p)) FROM unnest(?::text[]) AS p";
    /**
     * The look and the send in one statement, one round trip: whether a listener of the schema is
     * connected, and only if one is, the notifications (a CASE evaluates its subquery only when its
     * condition holds).
     */
    private static final String LOOK_AND_SEND = "SELECT l.heard, CASE WHEN l.heard THEN (" + SEND + ") ELSE 0 END"
            + " FROM (SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()"
            + " AND application_name = ?) AS heard) AS l";

    private final Db db;
    private final HeadListener heads;
    private final boolean packed;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private LinkedHashSet<String> pending = new LinkedHashSet<>();
    private boolean down;
    private boolean closed;
    private Thread thread;
    private volatile Connection connection;
    private volatile int backendPid;
    /** The entries of the send in flight (the thread's own). */
    private int inFlight;
    private final AtomicLong sends = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong unheard = new AtomicLong();
    private final AtomicLong looks = new AtomicLong();
    /** Whether the last look saw a listener (the thread's own; take() reads it for the gap). */
    private boolean heard;
    /** Whether the database cannot show who listens (then the notifier sends without looking; the thread's own). */
    private boolean blind;
    /**
     * The least time between the starts of two sends (5 ms): hints that come meanwhile gather into the
     * next, so a session that commits faster than that costs one notification per 5 ms, not one per
     * step, and a follower hears of a commit at most this much later than it would have (a commit after
     * a quiet gap is sent at once).
     */
    static final long MIN_GAP_NANOS = 5_000_000L;
    /** When the last round (a send, or a look that found no listener) was taken (guarded by {@code lock}). */
    private long lastSend = System.nanoTime() - QUIET_GAP_NANOS; // the first hint goes at once
    /** Whether the thread waits for hints, with none gathered (guarded by {@code lock}). */
    private boolean idle;

    /**
     * @param packed whether several keys share one payload, or each key is its own notification (false,
     *               the store's choice; either way one statement per send)
     */
    HeadNotifier(Db db, HeadListener heads, boolean packed) {
        this.db = db;
        this.heads = heads;
        this.packed = packed;
    }

    /**
     * Queues a hint that {@code key} moved, to be sent as soon as the thread is free; drops it while the
     * connection is down or after close. Never blocks on the network, never throws.
     */
    void hint(SessionKey key) {
        hintAll(List.of(key));
    }

    /**
     * Queues hints that every key of {@code keys} moved (the sessions of one commit: one wake-up of the
     * thread, so they go in one send), as {@link #hint} does for one. Never blocks on the network,
     * never throws.
     */
    void hintAll(Collection<SessionKey> keys) {
        try {
            List<String> entries = new ArrayList<>(keys.size());
            for (SessionKey key : keys) {
                entries.add(heads.payload(key));
            }
            lock.lock();
            try {
                for (String entry : entries) {
                    if (closed || down || pending.size() >= MAX_PENDING) {
                        dropped.incrementAndGet();
                    } else {
                        pending.add(entry);
                    }
                }
                if (thread == null && !closed && !down) {
                    thread = Thread.ofPlatform().daemon().name("threadline-pg-notify").start(this::run);
                }
                if (idle) {
                    work.signal(); // in a gap after a send the thread wakes by itself and takes these too
                }
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException | Error e) {
            dropped.addAndGet(keys.size()); // a hint must never fail the append that committed before it
        }
    }

    /** The thread that sends, once a first hint started it; null before (for tests). */
    Thread thread() {
        lock.lock();
        try {
            return thread;
        } finally {
            lock.unlock();
        }
    }

    /** How many sends (statements) went out, how many entries they carried, how many hints were dropped. */
    long sends() {
        return sends.get();
    }

    long sent() {
        return sent.get();
    }

    long dropped() {
        return dropped.get();
    }

    /**
     * Hints not sent because no listener of this store's schema was connected, counted once per session
     * and look (hints of one session that gather between two looks are one), for tests.
     */
    long unheard() {
        return unheard.get();
    }

    /** Whether the thread waits for hints with none gathered: every hint given so far was sent, unheard or dropped (for tests). */
    boolean drained() {
        lock.lock();
        try {
            return idle && pending.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** How many times the notifier looked for a listener (for tests). */
    long looks() {
        return looks.get();
    }

    /** The server process of the notifier's current connection (0 when unknown or not connected), for tests. */
    int backendPid() {
        return backendPid;
    }

    private void run() {
        long backoffMs = MIN_BACKOFF_MS;
        while (true) {
            try (Connection c = db.dedicated(null)) {
                connection = c;
                if (isClosed()) {
                    return;
                }
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("SET application_name = 'threadline-notify'");
                    s.execute("SET synchronous_commit = off"); // the hint is not data: no need to wait for a WAL flush
                } catch (SQLException ignored) {
                    // a compatible database without these settings still sends
                }
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                    backendPid = rs.next() ? rs.getInt(1) : 0;
                } catch (SQLException ignored) {
                    backendPid = 0; // only tests look at it
                }
                try (PreparedStatement send = c.prepareStatement(SEND);
                     PreparedStatement lookAndSend = c.prepareStatement(LOOK_AND_SEND)) {
                    lookAndSend.setString(2, heads.applicationName());
                    backoffMs = MIN_BACKOFF_MS;
                    while (true) {
                        List<String> batch = take();
                        if (batch == null) {
                            return;
                        }
                        inFlight = batch.size();
                        List<String> payloads = HintPayloads.of(batch, HintPayloads.MAX_BYTES, packed);
                        Array array = c.createArrayOf("text", payloads.toArray());
                        if (blind) {
                            send(send, array);
                            heard = true;
                        } else {
                            heard = lookAndSend(lookAndSend, send, array);
                        }
                        array.free();
                        inFlight = 0;
                        if (heard) {
                            sends.incrementAndGet();
                            sent.addAndGet(batch.size());
                        } else {
                            unheard.addAndGet(batch.size()); // no listener: the commits before this look need no hint
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                dropped.addAndGet(inFlight);
                inFlight = 0;
                // down: drop what was gathered and what comes until the next try (followers recheck), retry later
                if (!pauseAfterFailure(backoffMs)) {
                    return;
                }
                backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
            } finally {
                connection = null;
                backendPid = 0;
            }
        }
    }

    /**
     * Looks for a connection of a listener of this store's schema and, if there is one, sends; returns
     * whether it sent. When the database cannot show its connections (a PostgreSQL-compatible one
     * without {@code pg_stat_activity}), sends without looking, then and from then on.
     */
    private boolean lookAndSend(PreparedStatement lookAndSend, PreparedStatement send, Array payloads) throws SQLException {
        looks.incrementAndGet();
        lookAndSend.setArray(1, payloads);
        try (ResultSet rs = lookAndSend.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        } catch (SQLException e) {
            String state = e.getSQLState();
            if (!"42P01".equals(state) && !"42501".equals(state) && !"42883".equals(state) && !"0A000".equals(state)) {
                throw e; // not the look (a broken connection, the notification queue): as a failed send
            }
            blind = true; // no pg_stat_activity, or not readable: send without looking from now on
            send(send, payloads);
            return true;
        }
    }

    private static void send(PreparedStatement send, Array payloads) throws SQLException {
        send.setArray(1, payloads);
        try (ResultSet rs = send.executeQuery()) {
            rs.next();
        }
    }

    private boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** The keys gathered since the last send, waiting for one if there are none; null once closed. */
    private List<String> take() {
        lock.lock();
        try {
            long gap = lastSend + (heard ? MIN_GAP_NANOS : QUIET_GAP_NANOS) - System.nanoTime();
            while (gap > 0 && !closed) { // gather what comes within the gap after the last send
                try {
                    gap = work.awaitNanos(gap);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            while (pending.isEmpty() && !closed) {
                idle = true;
                work.awaitUninterruptibly();
                idle = false;
            }
            if (closed) {
                return null;
            }
            lastSend = System.nanoTime();
            List<String> batch = new ArrayList<>(pending);
            pending = new LinkedHashSet<>();
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** Drops the gathered hints, refuses new ones for {@code ms}; false when closed meanwhile. */
    private boolean pauseAfterFailure(long ms) {
        lock.lock();
        try {
            dropped.addAndGet(pending.size());
            pending = new LinkedHashSet<>();
            down = true;
            long left = TimeUnit.MILLISECONDS.toNanos(ms);
            while (!closed && left > 0) {
                left = work.awaitNanos(left);
            }
            down = false;
            return !closed;
        } catch (InterruptedException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the thread: it ends after the send in flight, if any (its connection is aborted when that
     * send does not end within a few seconds). Later hints are dropped.
     */
    @Override
    public void close() {
        Thread t;
        lock.lock();
        try {
            closed = true;
            work.signalAll();
            t = thread;
        } finally {
            lock.unlock();
        }
        if (t == null) {
            return;
        }
        try {
            t.join(TimeUnit.SECONDS.toMillis(5));
            Connection c = connection;
            if (t.isAlive() && c != null) {
                Executor inline = Runnable::run;
                c.abort(inline); // a send stuck on an unanswering server: break its socket
            }
            t.join(TimeUnit.SECONDS.toMillis(5)); // or a connect in progress: it ends within the connect timeout
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException ignored) {
            // the connection is closing anyway
        }
    }
}
