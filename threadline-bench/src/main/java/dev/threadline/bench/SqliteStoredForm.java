package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import dev.threadline.bench.kit.SqliteFiles;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@link StoredFormRun} on SQLite: three files beside the {@code --store} path (Threadline's, the plain
 * rows', the document's), all WAL with {@code synchronous=FULL} and SQLite's default automatic
 * checkpoints. Size is {@code (page_count - freelist_count) * page_size}; the log is the WAL file's
 * growth after a {@code wal_checkpoint(TRUNCATE)}, refused if a checkpoint ran meanwhile.
 */
final class SqliteStoredForm implements StoredFormBackend {
    private final Path threadline;
    private final Path plain;
    private final Path document;
    private Connection plainConnection;
    private PreparedStatement plainInsert;
    private long mainSizeAtMark;

    SqliteStoredForm(StoreUrl url) {
        this.threadline = url.fileFor("sf-threadline");
        this.plain = url.fileFor("sf-plain");
        this.document = url.fileFor("sf-document");
    }

    @Override
    public String describe() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
            rs.next();
            return "SQLite " + rs.getString(1) + " (WAL, synchronous=FULL, 4 KiB pages), files " + threadline.getParent();
        }
    }

    @Override
    public void resetThreadline() throws Exception {
        java.nio.file.Files.createDirectories(threadline.getParent());
        SqliteFiles.delete(threadline);
    }

    @Override
    public StateStore openThreadline() {
        return SqliteStateStore.open(threadline);
    }

    @Override
    public long threadlineBytes() throws SQLException {
        return usedBytes(threadline);
    }

    private static long usedBytes(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            return (Schema.pragma(c, "page_count") - Schema.pragma(c, "freelist_count")) * Schema.pragma(c, "page_size");
        }
    }

    @Override
    public void resetPlain() throws Exception {
        SqliteFiles.delete(plain);
        plainConnection = SqliteFiles.config().createConnection("jdbc:sqlite:" + plain);
        SqliteFiles.exec(plainConnection, "CREATE TABLE plain (session_id TEXT NOT NULL, seq INTEGER NOT NULL,"
                + " text TEXT NOT NULL, PRIMARY KEY (session_id, seq))");
        plainInsert = plainConnection.prepareStatement("INSERT INTO plain (session_id, seq, text) VALUES (?, ?, ?)");
    }

    @Override
    public long plainBytes() throws SQLException {
        return usedBytes(plain);
    }

    @Override
    public void insertPlain(String session, long seq, String text) throws SQLException {
        plainInsert.setString(1, session);
        plainInsert.setLong(2, seq);
        plainInsert.setString(3, text);
        plainInsert.executeUpdate(); // auto-commit: one transaction, one fsync
    }

    @Override
    public void closePlain() throws SQLException {
        plainInsert.close();
        plainConnection.close();
    }

    @Override
    public long logMark(boolean forThreadline) throws Exception {
        Path file = forThreadline ? threadline : plain;
        if (!SqliteFiles.truncateWal(file)) {
            throw new IllegalStateException("could not empty the WAL of " + file + " before measuring");
        }
        mainSizeAtMark = SqliteFiles.size(file);
        return SqliteFiles.walSize(file);
    }

    @Override
    public long logSince(boolean forThreadline, long mark) throws Exception {
        Path file = forThreadline ? threadline : plain;
        if (SqliteFiles.size(file) != mainSizeAtMark) {
            throw new IllegalStateException("an automatic checkpoint ran while the WAL of " + file
                    + " was measured; use fewer --wal-steps");
        }
        return SqliteFiles.walSize(file) - mark;
    }

    @Override
    public void writeDocument(String session, String json) throws Exception {
        SqliteFiles.delete(document);
        try (Connection c = SqliteFiles.config().createConnection("jdbc:sqlite:" + document)) {
            SqliteFiles.exec(c, "CREATE TABLE document (session_id TEXT PRIMARY KEY, json TEXT NOT NULL)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO document (session_id, json) VALUES (?, ?)")) {
                ps.setString(1, session);
                ps.setString(2, json);
                ps.executeUpdate();
            }
        }
    }

    @Override
    public Connection documentConnection() throws SQLException {
        return SqliteFiles.config().createConnection("jdbc:sqlite:" + document);
    }

    @Override
    public String documentSql() {
        return "SELECT json FROM document WHERE session_id = ?";
    }

    @Override
    public boolean sqlite() {
        return true;
    }

    @Override
    public void close() {}

    /** PRAGMA reads. */
    private static final class Schema {
        static long pragma(Connection c, String name) throws SQLException {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA " + name)) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
