package dev.threadline.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * Runs a batch of writes of {@link GroupCommit} as one {@code BEGIN IMMEDIATE} transaction on the
 * writer connection: each write in its own savepoint (unless it is alone), one {@code COMMIT}, and
 * only then each write's future completed. A write that throws is rolled back to its savepoint and
 * fails alone; if the transaction itself fails, every write of the batch fails.
 */
final class Batches {
    private final Connection writer;
    private final BiFunction<String, SQLException, RuntimeException> failure;
    private final AtomicLong commits = new AtomicLong();

    /** {@code failure} turns an SQLException into the exception a caller sees, naming its write. */
    Batches(Connection writer, BiFunction<String, SQLException, RuntimeException> failure) {
        this.writer = writer;
        this.failure = failure;
    }

    /** Runs a non-transactional request (a pragma, the schema check) on the writer connection. */
    <T> void runAlone(GroupCommit.Request<T> r) {
        try {
            r.done().complete(r.work().run(writer));
        } catch (Throwable t) {
            r.done().completeExceptionally(callerSees(r, t));
        }
    }

    /** How many transactions have been committed (each holding one or more writes). */
    long commits() {
        return commits.get();
    }

    /** Runs the batch in one transaction; true when it committed (even if some of its writes failed alone). */
    boolean run(List<GroupCommit.Request<?>> batch) {
        try {
            Connections.exec(writer, "BEGIN IMMEDIATE");
        } catch (SQLException e) {
            failAll(batch, e);
            return false;
        }
        Object[] results = new Object[batch.size()];
        Throwable[] errors = new Throwable[batch.size()];
        boolean savepoints = batch.size() > 1;
        try {
            for (int i = 0; i < batch.size(); i++) {
                runOne(batch.get(i), savepoints, results, errors, i);
            }
            Connections.exec(writer, "COMMIT");
            commits.incrementAndGet(); // before any caller hears of it
        } catch (SQLException | RuntimeException | Error e) {
            rollback(e);
            failAll(batch, e);
            return false;
        }
        for (int i = 0; i < batch.size(); i++) {
            complete(batch.get(i), results[i], errors[i]);
        }
        return true;
    }

    /** Runs one write in its savepoint; its own failure is recorded, a failure of the transaction is thrown. */
    private void runOne(GroupCommit.Request<?> r, boolean savepoint, Object[] results, Throwable[] errors, int i) throws SQLException {
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
    private <T> void complete(GroupCommit.Request<T> r, Object result, Throwable error) {
        if (error != null) {
            r.done().completeExceptionally(callerSees(r, error));
        } else {
            r.done().complete((T) result);
        }
    }

    /** Nothing of the batch was committed: each write fails, an SQL error named after that write. */
    private void failAll(List<GroupCommit.Request<?>> batch, Throwable cause) {
        for (GroupCommit.Request<?> r : batch) {
            r.done().completeExceptionally(callerSees(r, cause));
        }
    }

    private Throwable callerSees(GroupCommit.Request<?> r, Throwable t) {
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
