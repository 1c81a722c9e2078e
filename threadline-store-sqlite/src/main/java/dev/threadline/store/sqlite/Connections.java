package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;
import dev.threadline.store.jdbc.SqlWork;
import dev.threadline.store.jdbc.Transactions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.sqlite.SQLiteConfig;

/**
 * The store's connections: one writer, used through {@link GroupCommit}, which runs the writes of
 * every session in {@code BEGIN IMMEDIATE} transactions and commits many of them at once (SQLite
 * serializes writers anyway, and the immediate lock makes the expected-seq check and the insert one
 * atomic step across processes too), and a small pool of readers, which in WAL mode read the last
 * committed state without blocking the writer or each other.
 */
final class Connections implements Transactions, AutoCloseable {

    private static final int IDLE_READERS = 4;

    private final Path file;
    private final SQLiteConfig config;
    private final ReentrantLock lifecycle = new ReentrantLock();
    private final Connection writer;
    private final GroupCommit committer;
    private final BlockingQueue<Connection> idleReaders = new ArrayBlockingQueue<>(IDLE_READERS);
    private volatile boolean closed;

    Connections(Path file, SQLiteConfig config, int maxBatch) throws SQLException {
        this.file = file;
        this.config = config;
        this.writer = StatementCache.wrap(config.createConnection(url()));
        this.committer = new GroupCommit(writer, maxBatch, this::failure);
    }

    /**
     * Runs {@code work} in a {@code BEGIN IMMEDIATE} transaction, possibly shared with other writes
     * (each in its own savepoint); returns once that transaction committed. If {@code work} throws,
     * nothing it wrote stays and the exception is rethrown here.
     */
    @Override
    public <T> T write(Supplier<String> what, SqlWork<T> work) {
        return submit(what, work, true);
    }

    /** Runs {@code work} on the writer connection outside any transaction (pragmas, maintenance). */
    <T> T onWriter(Supplier<String> what, SqlWork<T> work) {
        return submit(what, work, false);
    }

    private <T> T submit(Supplier<String> what, SqlWork<T> work, boolean transactional) {
        GroupCommit.Request<T> request = GroupCommit.Request.of(what, work, transactional);
        lifecycle.lock();
        try {
            checkOpen();
            committer.enqueue(request);
        } finally {
            lifecycle.unlock();
        }
        committer.await(request);
        try {
            return request.done().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new StorageException("sqlite store " + file + ": cannot " + what.get() + ": " + e.getCause(), e.getCause());
        }
    }

    /** How many writes wait for a leader, and how many transactions were committed (for tests). */
    int queued() {
        return committer.queued();
    }

    long commits() {
        return committer.commits();
    }

    /** Runs {@code work} on a reader connection; each statement sees the last committed state. */
    @Override
    public <T> T read(Supplier<String> what, SqlWork<T> work) {
        Connection c = borrow(what);
        try {
            return work.run(c);
        } catch (SQLException e) {
            throw failure(what.get(), e);
        } finally {
            release(c);
        }
    }

    /** Runs one statement without parameters (prepared, so cached on a wrapped connection: BEGIN, COMMIT, SAVEPOINT ...). */
    static void exec(Connection c, String sql) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.execute();
        }
    }

    /** Lets queued writes finish, then closes every connection. Idempotent. */
    @Override
    public void close() {
        lifecycle.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            lifecycle.unlock();
        }
        committer.drain(); // writes queued before the close still run; later ones were refused above
        for (Connection c; (c = idleReaders.poll()) != null; ) {
            closeQuietly(c);
        }
        closeQuietly(writer);
    }

    private Connection borrow(Supplier<String> what) {
        checkOpen();
        Connection c = idleReaders.poll();
        if (c != null) {
            return c;
        }
        try {
            c = StatementCache.wrap(config.createConnection(url()));
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

    private void checkOpen() {
        if (closed) {
            throw new StorageException("the sqlite store at " + file + " is closed");
        }
    }

    StorageException failure(String what, SQLException e) {
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
