package dev.threadline.store.sqlite;

import java.util.concurrent.TimeUnit;

/**
 * Wakes this store's {@code awaitHead} waiters right after one of its own commits moved a journal
 * (or removed a session). Commits of other processes or other store instances on the same file are
 * not seen here; waiters poll for them every {@link #POLL_NANOS}. Thread-safe.
 */
final class HeadSignal {
    /** How often a waiter re-reads the head for a commit made elsewhere. */
    static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private long commits;

    /** How many commits were signalled so far; read it before reading the head. */
    synchronized long seen() {
        return commits;
    }

    /** After a commit: wakes every waiter. */
    synchronized void committed() {
        commits++;
        notifyAll();
    }

    /**
     * Waits until a commit after {@code seen} is signalled, or up to {@code nanos} (capped at
     * {@link #POLL_NANOS}) have passed.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    synchronized void await(long seen, long nanos) throws InterruptedException {
        if (commits == seen) {
            TimeUnit.NANOSECONDS.timedWait(this, Math.max(1, Math.min(nanos, POLL_NANOS)));
        }
    }
}
