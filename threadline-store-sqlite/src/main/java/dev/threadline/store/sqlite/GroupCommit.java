package dev.threadline.store.sqlite;

import dev.threadline.store.jdbc.SqlWork;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Group commit on the writer connection. Callers queue their writes; one of them at a time, the
 * leader (whoever holds the writer lock), takes every write queued so far, runs each inside its own
 * savepoint of one {@code BEGIN IMMEDIATE} transaction, commits once (one fsync with
 * {@code synchronous=FULL}), and only then completes their futures. Writes queued while it commits
 * wait; the owner of the oldest is asked to lead next and takes them all at once. A lone writer is
 * its own leader: no thread hand-off. A write that throws (a failed expected-seq check, a bad batch) is rolled back to
 * its savepoint and fails alone; the others of the batch commit. If the commit itself fails, every
 * write of the batch fails and none was acknowledged. So an acknowledged write is always durable,
 * exactly as with one transaction per write, and under load one fsync serves many sessions.
 * See ADR 0011.
 */
final class GroupCommit {
    /** Most writes in one transaction by default: bounds the latency a write can add to the others of its batch. */
    static final int MAX_BATCH = 512;

    /**
     * A queued write: {@code transactional} ones are batched; others (pragmas, schema) run alone, outside
     * a transaction. {@code what} names it in error messages; {@code done} completes when it has run;
     * {@code turn} completes when its caller is asked to lead.
     */
    record Request<T>(Supplier<String> what, SqlWork<T> work, boolean transactional, CompletableFuture<T> done,
                      CompletableFuture<Void> turn) {
        static <T> Request<T> of(Supplier<String> what, SqlWork<T> work, boolean transactional) {
            return new Request<>(what, work, transactional, new CompletableFuture<>(), new CompletableFuture<>());
        }
    }

    private final Batches batches;
    private final ConcurrentLinkedQueue<Request<?>> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock leader = new ReentrantLock();
    private final int maxBatch;

    /** {@code maxBatch} caps the writes of one commit; {@code failure} turns an SQLException into what a caller sees. */
    GroupCommit(Connection writer, int maxBatch, BiFunction<String, SQLException, RuntimeException> failure) {
        this.batches = new Batches(writer, failure);
        this.maxBatch = maxBatch;
    }

    /** Queues a write; {@link #await} then sees it through. */
    void enqueue(Request<?> request) {
        queue.add(request);
    }

    /**
     * Returns once {@code request} has run and its transaction has ended. If no one leads, this caller
     * leads: it runs batches until its own write is done, then asks the owner of the oldest write still
     * queued to lead next. Otherwise it waits until its write is done or it is asked to lead. So a lone
     * writer commits on its own thread, and under load exactly one caller wakes per batch (no convoy
     * through the lock). Not interruptible: the caller learns the outcome of what it queued.
     */
    void await(Request<?> request) {
        boolean asked = false;
        while (!request.done().isDone()) {
            if (asked) {
                leader.lock(); // asked by the previous leader, which may not have let go yet
            } else if (!leader.tryLock()) {
                CompletableFuture.anyOf(request.done(), request.turn()).exceptionally(e -> null).join(); // its outcome is read later
                asked = true;
                continue;
            }
            try {
                while (!request.done().isDone()) {
                    runNext(); // our write is queued, so it runs within a few batches
                }
            } finally {
                leader.unlock();
            }
            handOver();
        }
    }

    /**
     * After letting go of the lock: the writes queued meanwhile need a leader, so the owner of the
     * oldest one is asked (if it is already leading or on its way, this changes nothing).
     */
    private void handOver() {
        Request<?> next = queue.peek();
        if (next != null) {
            next.turn().complete(null);
        }
    }

    /** Runs everything still queued (used when the store closes). */
    void drain() {
        leader.lock();
        try {
            while (!queue.isEmpty()) {
                runNext();
            }
        } finally {
            leader.unlock();
        }
    }

    /** How many transactions have been committed (each holding one or more writes). */
    long commits() {
        return batches.commits();
    }

    /** How many writes wait for a leader (for tests). */
    int queued() {
        return queue.size();
    }

    /** Runs the next non-transactional request alone, or the longest run of transactional ones as one batch. */
    private void runNext() {
        Request<?> first = queue.poll();
        if (first == null) {
            return;
        }
        if (!first.transactional()) {
            batches.runAlone(first);
            return;
        }
        List<Request<?>> batch = new ArrayList<>();
        batch.add(first);
        for (Request<?> next; batch.size() < maxBatch && (next = queue.peek()) != null && next.transactional(); ) {
            batch.add(queue.poll());
        }
        batches.run(batch);
    }
}
