package dev.threadline.store.sqlite;

import dev.threadline.core.StorageException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.sqlite.SQLiteConfig;

/**
 * The store's connections: one writer, used under a lock inside {@code BEGIN IMMEDIATE}
 * transactions (SQLite serializes writers anyway, and the immediate lock makes the expected-seq check
 * and the insert one atomic step across processes too), and a small pool of readers, which in WAL
 * mode read the last committed state without blocking the writer or each other.
 */
final class Connections implements AutoCloseable {

    /** Work on a connection. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private static final int IDLE_READERS = 4;

    private final Path file;
    private final SQLiteConfig config;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final Connection writer;
    private final BlockingQueue<Connection> idleReaders = new ArrayBlockingQueue<>(IDLE_READERS);
    private volatile boolean closed;

    Connections(Path file, SQLiteConfig config) throws SQLException {
        this.file = file;
        this.config = config;
        this.writer = config.createConnection(url());
    }

    /** Runs {@code work} in one {@code BEGIN IMMEDIATE} transaction: committed if it returns, rolled back if it throws. */
    <T> T write(Supplier<String> what, Work<T> work) {
        writeLock.lock();
        try {
            checkOpen();
            exec(writer, "BEGIN IMMEDIATE");
            try {
                T result = work.run(writer);
                exec(writer, "COMMIT");
                return result;
            } catch (Throwable t) {
                rollback(t);
                throw t;
            }
        } catch (SQLException e) {
            throw failure(what.get(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs {@code work} on the writer connection outside any transaction (pragmas, maintenance). */
    <T> T onWriter(Supplier<String> what, Work<T> work) {
        writeLock.lock();
        try {
            checkOpen();
            return work.run(writer);
        } catch (SQLException e) {
            throw failure(what.get(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs {@code work} on a reader connection; each statement sees the last committed state. */
    <T> T read(Supplier<String> what, Work<T> work) {
        Connection c = borrow(what);
        try {
            return work.run(c);
        } catch (SQLException e) {
            throw failure(what.get(), e);
        } finally {
            release(c);
        }
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Connection c; (c = idleReaders.poll()) != null; ) {
                closeQuietly(c);
            }
            closeQuietly(writer);
        } finally {
            writeLock.unlock();
        }
    }

    private Connection borrow(Supplier<String> what) {
        checkOpen();
        Connection c = idleReaders.poll();
        if (c != null) {
            return c;
        }
        try {
            c = config.createConnection(url());
            exec(c, "PRAGMA query_only = ON");
            return c;
        } catch (SQLException e) {
            throw failure(what.get(), e);
        }
    }

    private void release(Connection c) {
        if (closed || !idleReaders.offer(c)) {
            closeQuietly(c);
        } else if (closed && idleReaders.remove(c)) {
            closeQuietly(c); // close() ran while we were putting it back
        }
    }

    private void rollback(Throwable cause) {
        try {
            exec(writer, "ROLLBACK");
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new StorageException("the sqlite store at " + file + " is closed");
        }
    }

    private StorageException failure(String what, SQLException e) {
        return new StorageException("sqlite store " + file + ": cannot " + what + ": " + e.getMessage(), e);
    }

    private String url() {
        return "jdbc:sqlite:" + file;
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing is best effort; every committed transaction is already durable
        }
    }
}
