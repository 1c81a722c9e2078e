package dev.threadline.bench;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * {@link StoredFormRun} on PostgreSQL: Threadline's tables in a schema of their own
 * ({@code threadline_sf}, through pgjdbc's {@code currentSchema}), the plain rows and the document in
 * another ({@code threadline_sf_plain}); both are dropped and created again by each run, nothing else of
 * the database is touched. Size is the sum of {@code pg_total_relation_size} of the schema's tables
 * (heap, TOAST and indexes); the log is the distance between {@code pg_current_wal_lsn()} readings
 * (the whole server's WAL, so run it on a server that is otherwise idle).
 */
final class PostgresStoredForm implements StoredFormBackend {
    private static final String TL_SCHEMA = "threadline_sf";
    private static final String PLAIN_SCHEMA = "threadline_sf_plain";
    private final String url;
    private final String jdbcUrl;
    private final Properties props = new Properties();
    private final Connection admin;
    private Connection plainConnection;
    private PreparedStatement plainInsert;

    PostgresStoredForm(String url) throws Exception {
        this.url = url;
        URI uri = new URI(url.replaceFirst("^postgres(ql)?://", "postgresql://"));
        if (uri.getRawUserInfo() != null) {
            String info = uri.getRawUserInfo();
            int colon = info.indexOf(':');
            props.setProperty("user", URLDecoder.decode(colon < 0 ? info : info.substring(0, colon), StandardCharsets.UTF_8));
            if (colon >= 0) {
                props.setProperty("password", URLDecoder.decode(info.substring(colon + 1), StandardCharsets.UTF_8));
            }
        }
        this.jdbcUrl = "jdbc:postgresql://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + uri.getRawPath()
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        this.admin = DriverManager.getConnection(jdbcUrl, props);
    }

    @Override
    public String describe() throws SQLException {
        return "PostgreSQL " + one(admin, "SHOW server_version") + " (fsync=" + one(admin, "SHOW fsync")
                + ", synchronous_commit=" + one(admin, "SHOW synchronous_commit") + ", full_page_writes="
                + one(admin, "SHOW full_page_writes") + ")";
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Override
    public void resetThreadline() throws SQLException {
        exec(admin, "DROP SCHEMA IF EXISTS " + TL_SCHEMA + " CASCADE");
        exec(admin, "CREATE SCHEMA " + TL_SCHEMA);
    }

    @Override
    public StateStore openThreadline() {
        return StateStores.open(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + TL_SCHEMA);
    }

    private long schemaBytes(String schema) throws SQLException {
        try (PreparedStatement ps = admin.prepareStatement("SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)"
                + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public long threadlineBytes() throws SQLException {
        return schemaBytes(TL_SCHEMA);
    }

    @Override
    public void resetPlain() throws SQLException {
        exec(admin, "DROP SCHEMA IF EXISTS " + PLAIN_SCHEMA + " CASCADE");
        exec(admin, "CREATE SCHEMA " + PLAIN_SCHEMA);
        exec(admin, "CREATE TABLE " + PLAIN_SCHEMA + ".plain (session_id text NOT NULL, seq bigint NOT NULL,"
                + " text text NOT NULL, PRIMARY KEY (session_id, seq))");
        plainConnection = DriverManager.getConnection(jdbcUrl, props);
        plainInsert = plainConnection.prepareStatement("INSERT INTO " + PLAIN_SCHEMA + ".plain (session_id, seq, text) VALUES (?, ?, ?)");
    }

    @Override
    public long plainBytes() throws SQLException {
        try (PreparedStatement ps = admin.prepareStatement("SELECT pg_total_relation_size(?::regclass)")) {
            ps.setString(1, PLAIN_SCHEMA + ".plain");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public void insertPlain(String session, long seq, String text) throws SQLException {
        plainInsert.setString(1, session);
        plainInsert.setLong(2, seq);
        plainInsert.setString(3, text);
        plainInsert.executeUpdate(); // auto-commit: one transaction
    }

    @Override
    public void closePlain() throws SQLException {
        plainInsert.close();
        plainConnection.close();
    }

    @Override
    public long logMark(boolean threadline) throws SQLException {
        exec(admin, "CHECKPOINT"); // the next writes pay their full-page images now, in both measures alike
        return walPosition();
    }

    private long walPosition() throws SQLException {
        return Long.parseLong(one(admin, "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint"));
    }

    @Override
    public long logSince(boolean threadline, long mark) throws SQLException {
        return walPosition() - mark;
    }

    @Override
    public void writeDocument(String session, String json) throws SQLException {
        exec(admin, "CREATE TABLE " + PLAIN_SCHEMA + ".document (session_id text PRIMARY KEY, json text NOT NULL)");
        try (PreparedStatement ps = admin.prepareStatement("INSERT INTO " + PLAIN_SCHEMA + ".document (session_id, json) VALUES (?, ?)")) {
            ps.setString(1, session);
            ps.setString(2, json);
            ps.executeUpdate();
        }
    }

    @Override
    public Connection documentConnection() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, props);
    }

    @Override
    public String documentSql() {
        return "SELECT json FROM " + PLAIN_SCHEMA + ".document WHERE session_id = ?";
    }

    @Override
    public boolean sqlite() {
        return false;
    }

    @Override
    public void close() throws SQLException {
        admin.close();
    }
}
