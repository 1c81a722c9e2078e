package dev.threadline.store.postgres;

import dev.threadline.core.store.SessionKey;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Wakes {@code awaitHead} waiters when any process commits to a session they follow. After an append
 * commits, the writing store's {@link HeadNotifier} sends {@code pg_notify(CHANNEL, payload)} on a
 * connection of its own, one notification per session in the {@link #payload} form (as stores
 * before the notifier sent; a payload may also hold several {@link HintPayloads#SEPARATOR}-separated
 * entries, and both are read); one thread of this store LISTENs on its own connection, outside the pool,
 * started by the first waiter, its connection named {@link #applicationName} so that notifiers can
 * tell that someone listens (they send nothing while no one does). A notification says "look again",
 * never what the head is: waiters re-read the head, so a lost or never-sent notification (a writer that died between its commit and
 * its notify, a notifier whose connection is down) only delays them, and they re-read at least every
 * {@link #RECHECK_MS} ms anyway (every {@link #POLL_MS} ms at most while the listener is not
 * connected: then the store falls back to polling). Thread-safe.
 */
final class HeadListener implements AutoCloseable {
    /** The channel every Threadline store of a database notifies on; the payload says which schema and session. */
    static final String CHANNEL = "threadline_heads";
    static final long RECHECK_MS = 1000;
    static final long POLL_MS = 100;
    /** How every listener's {@code application_name} begins (the rest says its schema). */
    static final String LISTENER_PREFIX = "threadline-listen ";

    private final Db db;
    private final String schema;
    private final long recheckMs;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong connections = new AtomicLong();
    private final String prefix;
    private final String applicationName;
    private final Map<String, Waiters> waiters = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition stopped = lock.newCondition();
    private volatile boolean live;
    private volatile boolean closed;
    private Thread thread;

    HeadListener(Db db, String schema) {
        this(db, schema, RECHECK_MS);
    }

    /** A listener whose waiters re-read the head every {@code recheckMs} without a notification (tests make it huge). */
    HeadListener(Db db, String schema, long recheckMs) {
        this.db = db;
        this.schema = schema;
        this.recheckMs = recheckMs;
        this.prefix = (schema == null ? "" : schema) + "|";
        this.applicationName = applicationName(schema);
    }

    /**
     * The {@code application_name} a listener of {@code schema}'s stores gives its connection while it
     * LISTENs, so that a notifier can see whether anyone of that schema listens ({@link HeadNotifier}):
     * a fixed prefix and a digest of the schema's name, ASCII whatever the name holds (the server would
     * replace other characters) and well under the name's 63 bytes.
     */
    static String applicationName(String schema) {
        if (schema == null) {
            return LISTENER_PREFIX + "-";
        }
        CRC32C digest = new CRC32C();
        digest.update(schema.getBytes(StandardCharsets.UTF_8));
        return LISTENER_PREFIX + String.format(Locale.ROOT, "%08x", digest.getValue());
    }

    /** The {@code application_name} this listener's connection carries while it LISTENs. */
    String applicationName() {
        return applicationName;
    }

    /** The payload an append to {@code key} notifies with. */
    String payload(SessionKey key) {
        return prefix + key.tenant() + "|" + key.id();
    }

    /** How many notified entries matched a session someone here waits on (each woke its waiters), for tests. */
    long delivered() {
        return delivered.get();
    }

    /** How many sessions have waiters now, for tests. */
    int waiting() {
        return waiters.size();
    }

    /** Whether notifications are being received now (otherwise waiters poll). */
    boolean live() {
        return live;
    }

    /** The waiters of one session: a counter of notifications and a condition to wait on it. */
    static final class Waiters {
        final AtomicLong seen = new AtomicLong();
        final ReentrantLock lock = new ReentrantLock();
        final Condition moved = lock.newCondition();
        int count;
        /** Threads waiting now, and the latest count of wakes one of them had seen (guarded by lock; for tests). */
        private int parked;
        private long parkedSince = -1;
        private long parkedNanos;

        void bump() {
            lock.lock();
            try {
                seen.incrementAndGet();
                moved.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** Waits until a notification after {@code since}, or {@code nanos} have passed. */
        void await(long since, long nanos) throws InterruptedException {
            lock.lock();
            try {
                long left = nanos;
                while (seen.get() == since && left > 0) {
                    parked++;
                    parkedSince = Math.max(parkedSince, since);
                    parkedNanos = nanos;
                    try {
                        left = moved.awaitNanos(left);
                    } finally {
                        parked--;
                    }
                }
            } finally {
                lock.unlock();
            }
        }

        /**
         * Whether a thread waits now, for at least {@code minNanos}, having seen every wake so far (for tests,
         * with one waiter per session).
         */
        boolean parkedOnLatest(long minNanos) {
            lock.lock();
            try {
                return parked > 0 && parkedSince == seen.get() && parkedNanos >= minNanos;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * How many sessions have a waiter that waits now the re-check interval (or half of it at least: the
     * rest of its timeout may be shorter), not a poll pause, having seen every wake so far (for tests:
     * only a notification wakes such a waiter before that interval).
     */
    int parkedOnLatest() {
        long min = TimeUnit.MILLISECONDS.toNanos(recheckMs) / 2;
        int n = 0;
        for (Waiters w : waiters.values()) {
            n += w.parkedOnLatest(min) ? 1 : 0;
        }
        return n;
    }

    /** How many times the listener connected, LISTENed and woke every waiter (for tests). */
    long connections() {
        return connections.get();
    }

    /** Registers a waiter on {@code key} (before it reads the head, so no commit after that read is missed). */
    Waiters register(SessionKey key) {
        start();
        return waiters.compute(payload(key), (k, w) -> {
            Waiters out = w == null ? new Waiters() : w;
            out.count++;
            return out;
        });
    }

    void unregister(SessionKey key) {
        waiters.computeIfPresent(payload(key), (k, w) -> --w.count == 0 ? null : w);
    }

    /** How a waiter reads a session's head. */
    interface HeadReader {
        long head(SessionKey key);
    }

    /**
     * Waits until {@code read} finds the head past {@code afterSeq} or {@code deadline} ({@link System#nanoTime})
     * passes, woken by any process's notification for the session and reading the head again at least every
     * {@link #RECHECK_MS} ms; polling (2 ms growing to {@link #POLL_MS} ms) while the listener is not connected.
     */
    long await(SessionKey key, long afterSeq, long deadline, HeadReader read) throws InterruptedException {
        Waiters w = register(key);
        try {
            long poll = 2_000_000L;
            while (true) {
                long seen = w.seen.get();
                long head = read.head(key);
                long left = deadline - System.nanoTime();
                if (head > afterSeq || left <= 0) {
                    return head;
                }
                w.await(seen, Math.min(left, pauseNanos(poll)));
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for session '" + key.id()
                            + "' to move past seq " + afterSeq);
                }
                poll = Math.min(poll * 2, POLL_MS * 1_000_000L);
            }
        } finally {
            unregister(key);
        }
    }

    /** How long a waiter may wait before it reads the head again. */
    long pauseNanos(long pollNanos) {
        return live ? TimeUnit.MILLISECONDS.toNanos(recheckMs) : pollNanos;
    }

    private void start() {
        lock.lock();
        try {
            if (thread == null && !closed) {
                thread = Thread.ofPlatform().daemon().name("threadline-pg-listen").start(this::run);
            }
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        long backoffMs = 50;
        while (!closed) {
            try (Connection c = db.dedicated(schema)) {
                try (Statement s = c.createStatement()) {
                    // named before it listens: a notifier that sees no connection of this name sends nothing, so a
                    // commit it saw no listener for came before this LISTEN, and the waiters' next read sees it
                    s.execute("SET application_name = '" + applicationName + "'");
                    s.execute("LISTEN " + CHANNEL);
                }
                live = true;
                backoffMs = 50;
                wakeAll(); // a commit may have happened while no one listened
                connections.incrementAndGet();
                PGConnection pg = c.unwrap(PGConnection.class);
                while (!closed) {
                    PGNotification[] ns = pg.getNotifications((int) POLL_MS * 5);
                    if (ns != null) {
                        for (PGNotification n : ns) {
                            wake(n.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                live = false;
                wakeAll();
                pause(backoffMs);
                backoffMs = Math.min(2000, backoffMs * 2);
            }
        }
        live = false;
    }

    /** Wakes the waiters of every session {@code payload} names (one entry, or several separated by spaces). */
    private void wake(String payload) {
        int from = 0;
        while (from <= payload.length()) {
            int end = payload.indexOf(HintPayloads.SEPARATOR, from);
            if (end < 0) {
                end = payload.length();
            }
            Waiters w = waiters.get(payload.substring(from, end));
            if (w != null) {
                delivered.incrementAndGet();
                w.bump();
            }
            from = end + 1;
        }
    }

    private void wakeAll() {
        waiters.values().forEach(Waiters::bump);
    }

    private void pause(long ms) {
        lock.lock();
        try {
            if (!closed) {
                stopped.await(ms, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        Thread t;
        lock.lock();
        try {
            closed = true;
            stopped.signalAll();
            t = thread;
        } finally {
            lock.unlock();
        }
        wakeAll();
        if (t != null) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(5)); // getNotifications returns within its timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
