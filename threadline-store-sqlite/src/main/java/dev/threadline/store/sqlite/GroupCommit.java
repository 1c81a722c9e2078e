package dev.threadline.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Group commit: the one thread that owns the writer connection. Callers queue their writes and wait;
 * the thread takes every write queued so far, runs each inside its own savepoint of one
 * {@code BEGIN IMMEDIATE} transaction, commits once (one fsync with {@code synchronous=FULL}), and only
 * then completes their futures. A write that throws (a failed expected-seq check, a bad batch) is
 * rolled back to its savepoint and fails alone; the others of the batch commit. If the commit itself
 * fails, every write of the batch fails and none was acknowledged. So an acknowledged write is always
 * durable, exactly as with one transaction per write, and under load one fsync serves many sessions.
 * See ADR 0011.
 */
final class GroupCommit {
    /** Most writes in one transaction: bounds the latency a write can add to the others of its batch. */
    static final int MAX_BATCH = 512;

    /**
     * A queued write: {@code transactional} ones are batched; others (pragmas, schema) run alone, outside
     * a transaction. {@code what} names it in error messages.
     */
    record Request<T>(Supplier<String> what, Connections.Work<T> work, boolean transactional, CompletableFuture<T> done) {}

    private static final Request<Void> STOP = new Request<>(() -> "stop", c -> null, false, new CompletableFuture<>());

    private final Connection writer;
    private final BiFunction<String, SQLException, RuntimeException> failure;
    private final LinkedBlockingQueue<Request<?>> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final AtomicLong commits = new AtomicLong();

    /** Starts the thread; {@code failure} turns an SQLException into the exception a caller sees. */
    GroupCommit(Connection writer, String name, BiFunction<String, SQLException, RuntimeException> failure) {
        this.writer = writer;
        this.failure = failure;
        this.thread = Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    void enqueue(Request<?> request) {
        queue.add(request);
    }

    /** How many transactions this thread has committed (each holding one or more writes). */
    long commits() {
        return commits.get();
    }

    /** Lets every queued write finish, then stops the thread. */
    void stop() throws InterruptedException {
        queue.add(STOP);
        thread.join();
    }

    private void run() {
        List<Request<?>> batch = new ArrayList<>();
        while (true) {
            Request<?> first = take();
            if (first == STOP) {
                return;
            }
            if (!first.transactional()) {
                runAlone(first);
                continue;
            }
            batch.clear();
            batch.add(first);
            for (Request<?> next; batch.size() < MAX_BATCH && (next = queue.peek()) != null && next.transactional(); ) {
                batch.add(queue.poll());
            }
            runBatch(batch);
        }
    }

    private Request<?> take() {
        while (true) {
            try {
                return queue.take();
            } catch (InterruptedException e) {
                // only stop() ends this thread, so that no queued write is left waiting
            }
        }
    }

    private <T> void runAlone(Request<T> r) {
        try {
            r.done().complete(r.work().run(writer));
        } catch (Throwable t) {
            r.done().completeExceptionally(callerSees(r, t));
        }
    }

    private void runBatch(List<Request<?>> batch) {
        try {
            Connections.exec(writer, "BEGIN IMMEDIATE");
        } catch (SQLException e) {
            failAll(batch, e);
            return;
        }
        Object[] results = new Object[batch.size()];
        Throwable[] errors = new Throwable[batch.size()];
        boolean savepoints = batch.size() > 1;
        try {
            for (int i = 0; i < batch.size(); i++) {
                runOne(batch.get(i), savepoints, results, errors, i);
            }
            Connections.exec(writer, "COMMIT");
            commits.incrementAndGet();
        } catch (SQLException | RuntimeException | Error e) {
            rollback(e);
            failAll(batch, e);
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            complete(batch.get(i), results[i], errors[i]);
        }
    }

    /** Runs one write in its savepoint; its own failure is recorded, a failure of the transaction is thrown. */
    private void runOne(Request<?> r, boolean savepoint, Object[] results, Throwable[] errors, int i) throws SQLException {
        if (!savepoint) {
            results[i] = r.work().run(writer); // alone in its transaction: any failure rolls the whole of it back
            return;
        }
        Connections.exec(writer, "SAVEPOINT w");
        try {
            results[i] = r.work().run(writer);
        } catch (Throwable t) {
            errors[i] = t;
            try {
                Connections.exec(writer, "ROLLBACK TO w"); // undoes this write only; the transaction goes on
            } catch (SQLException gone) {
                gone.addSuppressed(t);
                throw gone; // SQLite ended the whole transaction (I/O error, disk full): fail the batch
            }
        }
        Connections.exec(writer, "RELEASE w");
    }

    @SuppressWarnings("unchecked")
    private <T> void complete(Request<T> r, Object result, Throwable error) {
        if (error != null) {
            r.done().completeExceptionally(callerSees(r, error));
        } else {
            r.done().complete((T) result);
        }
    }

    /** Nothing of the batch was committed: each write fails, an SQL error named after that write. */
    private void failAll(List<Request<?>> batch, Throwable cause) {
        for (Request<?> r : batch) {
            r.done().completeExceptionally(callerSees(r, cause));
        }
    }

    private Throwable callerSees(Request<?> r, Throwable t) {
        return t instanceof SQLException e ? failure.apply(r.what().get(), e) : t;
    }

    private void rollback(Throwable cause) {
        try {
            Connections.exec(writer, "ROLLBACK");
        } catch (SQLException e) {
            cause.addSuppressed(e); // "no transaction is active": SQLite already rolled it back
        }
    }
}
