package dev.threadline.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.store.jdbc.OneLine;
import dev.threadline.store.jdbc.SqlWork;
import dev.threadline.store.jdbc.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The store's connections (a HikariCP pool) and the two ways it uses them: a read on an auto-commit
 * connection, and a write as one transaction that is retried, whole, when the database reports a
 * serialization failure or a deadlock (SQLSTATE 40001 / 40P01: it rolled the transaction back, so a
 * retry cannot apply it twice; the retried transaction checks the expected seq again). A server that
 * cannot be reached is one {@link StorageException} line starting "store unavailable:" after at most
 * the connect timeout; the pool replaces broken connections, so the store recovers by itself when
 * the server is back. Thread-safe.
 */
final class Db implements Transactions, AutoCloseable {
    /** The most times one write transaction runs when it keeps meeting serialization failures. */
    static final int MAX_ATTEMPTS = 12;

    private final HikariDataSource pool;
    /** How long a call waits for a pooled connection while all are busy ({@code Options.poolWait}), in ns. */
    private final long poolWaitNanos;
    private final PgUrl url;
    private final Properties connectProps;
    /** Behind a transaction pooler or not (ADR 0048): the pool's URL, the direct one, the per-transaction settings. */
    private final Pooling pooling;
    private final String schema;
    private final java.util.concurrent.atomic.AtomicLong retries = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closed;
    /** Set when the pool last failed to reach the server; cleared by the first probe or pool connection that succeeds. */
    private volatile String down;
    private final java.util.concurrent.atomic.AtomicBoolean probing = new java.util.concurrent.atomic.AtomicBoolean();

    Db(PgUrl url, PostgresStateStore.Options options) {
        this.url = url;
        this.poolWaitNanos = options.poolWait().toNanos();
        this.connectProps = connectionProperties(url, options);
        this.pooling = Pooling.of(url, options.schema(), options.serializable());
        this.schema = options.schema();
        HikariConfig config = new HikariConfig();
        config.setPoolName("threadline-pg");
        config.setJdbcUrl(pooling.poolUrl());
        config.setDataSourceProperties(pooling.poolProperties(connectProps));
        config.setMaximumPoolSize(options.poolSize());
        config.setMinimumIdle(1);
        long connectMs = Math.max(250, options.connectTimeout().toMillis());
        // the pool's own wait is the connect timeout: one that ends with a connection failure behind it means
        // the server is not there (fail fast); one with none only means every connection was busy, and
        // connection() waits again, up to the pool wait
        config.setConnectionTimeout(connectMs);
        config.setValidationTimeout(Math.max(250, connectMs / 2));
        config.setInitializationFailTimeout(-1); // the first use reports an unreachable server, as every later one does
        if (options.schema() != null && !pooling.pooled()) { // pooled: SET LOCAL per transaction (Pooling)
            config.setSchema(options.schema());
        }
        if (options.serializable() && !pooling.pooled()) {
            config.setTransactionIsolation("TRANSACTION_SERIALIZABLE");
        }
        this.pool = new HikariDataSource(config);
    }

    /** The pgjdbc properties every connection of this store uses, the pool's and the listener's. */
    private static Properties connectionProperties(PgUrl url, PostgresStateStore.Options options) {
        Properties p = new Properties();
        if (url.user() != null) {
            p.setProperty("user", url.user());
        }
        if (url.password() != null) {
            p.setProperty("password", url.password());
        }
        long connectSeconds = Math.max(1, (options.connectTimeout().toMillis() + 999) / 1000);
        p.setProperty("connectTimeout", Long.toString(connectSeconds));
        p.setProperty("loginTimeout", Long.toString(connectSeconds));
        p.setProperty("socketTimeout", Long.toString(Math.max(1, options.queryTimeout().toSeconds())));
        p.setProperty("tcpKeepAlive", "true");
        p.setProperty("reWriteBatchedInserts", "true");
        p.setProperty("ApplicationName", "threadline");
        // every server this store runs on (PostgreSQL 9.0 and later, and the compatible databases) takes the
        // application name in the startup message, so a new connection needs no SET statement after it
        p.setProperty("assumeMinServerVersion", "9.0");
        return p;
    }

    PgUrl url() {
        return url;
    }

    Pooling pooling() {
        return pooling;
    }

    /** A connection like the pool's (through the pooler, if any) but outside it: for the check at open, which must not wait on the pool. */
    Connection unpooled() throws SQLException {
        return java.sql.DriverManager.getConnection(pooling.poolUrl(), pooling.poolProperties(connectProps));
    }

    /**
     * A connection outside the pool (the listener's), with the same properties and schema: to the
     * server itself ({@code direct}) when the pool's go through a pooler.
     */
    Connection dedicated(String schema) throws SQLException {
        Connection c = java.sql.DriverManager.getConnection(pooling.pooled() ? pooling.directUrl() : pooling.poolUrl(), connectProps);
        if (schema != null) {
            c.setSchema(schema);
        }
        return c;
    }

    /**
     * Runs {@code work} where schema changes belong: on a pooled connection, or, behind a pooler, on a
     * direct connection of its own (DDL and auto-commit statements that may fail without harm, ADR 0048).
     */
    <T> T setup(Supplier<String> what, SqlWork<T> work) {
        if (!pooling.pooled()) {
            return read(what, work);
        }
        open();
        try (Connection c = dedicated(schema)) {
            return work.run(c);
        } catch (SQLException e) {
            throw failure(what.get(), e);
        }
    }

    /** How many write transactions were run again after a serialization failure or deadlock (for tests and metrics). */
    long retries() {
        return retries.get();
    }

    /**
     * A pooled connection. While the server is known to be down, a call does not wait the pool's
     * connect timeout: one caller at a time tries a direct connection (refused at once when nothing
     * listens) and fails with its reason, and the others fail at once; the first success goes back to
     * the pool. So an outage fails calls fast and the store recovers by itself.
     */
    private Connection connection() throws SQLException {
        String reason = down;
        if (reason != null) {
            if (!probing.compareAndSet(false, true)) {
                throw new SQLTransientConnectionException("the server could not be reached a moment ago (" + reason + ")");
            }
            try (Connection probe = java.sql.DriverManager.getConnection(pooling.poolUrl(), connectProps)) {
                down = null;
            } catch (SQLException e) {
                down = reason(e);
                throw e;
            } finally {
                probing.set(false);
            }
        }
        long deadline = System.nanoTime() + poolWaitNanos;
        while (true) {
            try {
                return pool.getConnection(); // a failure reaches failure(), which notes an unreachable server
            } catch (SQLTransientConnectionException e) {
                if (closed) {
                    throw new ClosedWhileWaiting(e); // not an outage: this store was closed meanwhile
                }
                if (e.getCause() != null) {
                    throw e; // a connection failure behind the pool's timeout: the server is not there
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new PoolBusyException(pool.getMaximumPoolSize(), poolWaitNanos, e);
                }
                // every connection was busy for a connect timeout: the server is there, wait on
            }
        }
    }

    /** A call that waited for a pooled connection while the store was closed. */
    static final class ClosedWhileWaiting extends SQLException {
        ClosedWhileWaiting(SQLException last) {
            super("the store was closed while this call waited for a connection");
            addSuppressed(last);
        }
    }

    /**
     * Every one of the pool's connections stayed busy with other calls for the whole pool wait: the
     * server is there (no connection failed), so this is no "store unavailable".
     */
    static final class PoolBusyException extends SQLException {
        PoolBusyException(int poolSize, long waitedNanos, SQLException last) {
            super("all " + poolSize + " of the pool's connections stayed busy with other calls for "
                    + java.time.Duration.ofNanos(waitedNanos).toMillis() + " ms; raise the pool (Options.withPoolSize)"
                    + " or its wait (Options.withPoolWait), or lower the load");
            addSuppressed(last);
        }
    }

    /**
     * Notes that the server could not be reached, so the next call checks it directly instead of
     * waiting on the pool. A pool timeout with no connection failure behind it only means every
     * connection was busy: the server is there, and the next call should wait on the pool again.
     */
    private void noteUnreachable(SQLException e) {
        if (!(e instanceof SQLTransientConnectionException) || e.getCause() != null) {
            down = reason(e);
        }
    }

    /**
     * Runs {@code work} on an auto-commit connection. A read that meets a pooled connection the server
     * has dropped (a restart or failover since it was last used: SQLSTATE class 08 or 57P01-57P03) runs
     * once more on a new one, since a read changes nothing; the pool evicts the dropped connection.
     */
    @Override
    public <T> T read(Supplier<String> what, SqlWork<T> work) {
        open();
        for (int attempt = 1; ; attempt++) {
            try (Connection c = connection()) {
                if (!pooling.wrapsReads()) {
                    return work.run(c);
                }
                pooling.begin(c); // the pool closes (rolls back) a connection whose work failed
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException e) {
                StorageException failure = failure(what.get(), e); // notes an unreachable server first
                if (attempt > 1 || !dropped(e)) {
                    throw failure;
                }
            }
        }
    }

    /** Whether the server ended this connection (shutdown, termination, a broken link), not the statement. */
    static boolean dropped(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"));
    }

    /**
     * Runs {@code work} as one transaction and commits it. A {@link ThreadlineException} thrown by the
     * work (a refused append) rolls it back and is rethrown; 40001 and 40P01 run it again, whole.
     */
    @Override
    public <T> T write(Supplier<String> what, SqlWork<T> work) {
        open();
        for (int attempt = 1; ; attempt++) {
            boolean committing = false;
            try (Connection c = connection()) {
                c.setAutoCommit(false);
                try {
                    pooling.prelude(c);
                    T result = work.run(c);
                    committing = true;
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(c, e);
                    throw e;
                }
            } catch (SQLException e) {
                if (committing && unavailable(e)) {
                    // the server may have committed before the connection broke: say so, never "not applied"
                    throw new StorageException("store unavailable: " + url.shown() + " (" + what.get() + "): the connection"
                            + " broke during COMMIT, so the write may or may not be applied (read the head, or retry with"
                            + " the same command id): " + reason(e), e);
                }
                if (retryable(e) && attempt < MAX_ATTEMPTS) {
                    retries.incrementAndGet();
                    // jittered, growing pause so that the transactions that collided do not collide again
                    long maxMicros = Math.min(50_000L, 200L << Math.min(attempt, 8));
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxMicros) * 1000L);
                    continue;
                }
                throw failure(what.get(), e);
            }
        }
    }

    /**
     * Runs {@code work}, a single statement that is atomic by itself, on an auto-commit connection,
     * retried like {@link #write} on 40001 / 40P01. A connection lost while it runs leaves its outcome
     * unknown (the implicit commit may have happened), and the message says so.
     */
    <T> T writeOne(Supplier<String> what, SqlWork<T> work) {
        open();
        for (int attempt = 1; ; attempt++) {
            boolean sent = false;
            try (Connection c = connection()) {
                sent = true;
                if (!pooling.wrapsReads()) {
                    return work.run(c);
                }
                pooling.begin(c);
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException e) {
                if (sent && unavailable(e)) {
                    throw new StorageException("store unavailable: " + url.shown() + " (" + what.get() + "): the connection"
                            + " broke while the write ran, so it may or may not be applied (read the head, or retry with"
                            + " the same command id): " + reason(e), e);
                }
                if (retryable(e) && attempt < MAX_ATTEMPTS) {
                    retries.incrementAndGet();
                    long maxMicros = Math.min(50_000L, 200L << Math.min(attempt, 8));
                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(maxMicros) * 1000L);
                    continue;
                }
                throw failure(what.get(), e);
            }
        }
    }

    private static void rollbackQuietly(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException rollbackFailed) {
            cause.addSuppressed(rollbackFailed);
        }
    }

    /** SQLSTATE 40001 (serialization failure) or 40P01 (deadlock detected): the database rolled the transaction back. */
    static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** Whether {@code e} (or a cause) says the server cannot be reached or is going away; a busy pool is not that. */
    static boolean unavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PoolBusyException) {
                return false;
            }
            if (t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException s && s.getSQLState() != null) {
                String state = s.getSQLState();
                if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")
                        || state.equals("53300")) {
                    return true;
                }
            }
            if (t instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /** One line saying what failed; "store unavailable: ..." when the server is not there. */
    StorageException failure(String what, SQLException e) {
        if (e instanceof ClosedWhileWaiting) {
            return new StorageException(closedMessage() + " (" + what + "): " + e.getMessage(), e);
        }
        if (e instanceof PoolBusyException) {
            return new StorageException("postgres store " + url.shown() + ": cannot " + what + ": " + e.getMessage(), e);
        }
        if (unavailable(e)) {
            noteUnreachable(e);
            return new StorageException("store unavailable: " + url.shown() + " (" + what + "): " + reason(e), e);
        }
        return new StorageException("postgres store " + url.shown() + ": cannot " + what + ": "
                + OneLine.of(e.getMessage()) + " [SQLSTATE " + e.getSQLState() + "]", e);
    }

    /** The most telling message of the chain: the connection failure under a pool timeout, else the error's own. */
    private static String reason(Throwable e) {
        Throwable deepest = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException || t instanceof java.io.IOException) {
                deepest = t;
            }
        }
        return OneLine.of(deepest.getMessage() == null ? deepest.toString() : deepest.getMessage());
    }

    private void open() {
        if (closed) {
            throw new StorageException(closedMessage());
        }
    }

    private String closedMessage() {
        return "the postgres store " + url.shown() + " is closed";
    }

    @Override
    public void close() {
        closed = true;
        pool.close();
    }
}
