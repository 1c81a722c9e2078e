package dev.threadline.bench.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The SQLite settings every contender on SQLite gets, so that they are compared at one durability:
 * WAL, {@code synchronous=FULL} (a commit is fsynced before it returns), a busy timeout, immediate
 * transactions, and no automatic checkpoints (so that the log's growth is every byte a step wrote).
 * Also the measurement of that growth.
 */
public final class SqliteFiles {
    private SqliteFiles() {}

    /** The configuration of a contender's connections. */
    public static SQLiteConfig config() {
        SQLiteConfig c = new SQLiteConfig();
        c.setJournalMode(SQLiteConfig.JournalMode.WAL);
        c.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        c.setBusyTimeout(60_000);
        c.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        return c;
    }

    /** A data source with {@link #config()} on {@code file}. */
    public static SQLiteDataSource dataSource(Path file) {
        SQLiteDataSource ds = new SQLiteDataSource(config());
        ds.setUrl("jdbc:sqlite:" + file);
        return ds;
    }

    /** A connection with {@link #config()} and automatic checkpoints off. */
    public static Connection open(Path file) throws SQLException {
        Connection c = config().createConnection("jdbc:sqlite:" + file);
        exec(c, "PRAGMA wal_autocheckpoint = 0");
        return c;
    }

    public static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /**
     * Copies the log into the main file and empties it, so that growth can be measured from zero.
     * Returns false when a reader or writer kept the checkpoint from finishing.
     */
    public static boolean truncateWal(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 10000");
            try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                return rs.next() && rs.getInt(1) == 0;
            }
        }
    }

    /** The size of the write-ahead log of {@code file} (0 when there is none). */
    public static long walSize(Path file) throws IOException {
        Path wal = file.resolveSibling(file.getFileName() + "-wal");
        return Files.exists(wal) ? Files.size(wal) : 0;
    }

    public static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    /** Deletes a database and its log and shared-memory files. */
    public static void delete(Path file) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
        }
    }
}
