package dev.threadline.bench;

import com.fasterxml.jackson.databind.JavaType;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.postgres.PostgresStateStore;
import dev.threadline.harness.servers.PgServer;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * PostgreSQL under benchmark: a server of the benchmark's own ({@link PgServer} from the TCK, made
 * durable: {@code fsync=on}, {@code full_page_writes=on}, {@code synchronous_commit=on}; autovacuum off
 * and checkpoints 30 min apart so that neither writes WAL inside a measured window) or one given by URL,
 * left as it is configured. Threadline's tables go in a schema of their own, the raw floor's in another;
 * both are dropped at the end.
 */
final class PgTarget implements SharedTarget {
    /** The settings of the benchmark's own server, after the TCK's test settings (they override them). */
    static final List<String> SERVER_SETTINGS = List.of("fsync=on", "full_page_writes=on", "synchronous_commit=on",
            "autovacuum=off", "checkpoint_timeout=30min", "max_wal_size=8GB");

    /** How long a call may wait for one of the pool's busy connections (see {@link #storeConnections()}). */
    static final java.time.Duration POOL_WAIT = java.time.Duration.ofSeconds(60);

    private final PgServer server;
    private final String url;
    private final String jdbcUrl;
    private final Properties props;
    private final String schema;
    private final String rawSchema;
    private final Connection monitor;

    private PgTarget(PgServer server, String url) throws SQLException {
        this.server = server;
        this.url = url;
        URI u = URI.create(url.replaceFirst("^postgres(ql)?://", "postgresql://"));
        this.jdbcUrl = "jdbc:postgresql://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort()) + u.getRawPath()
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
        this.props = new Properties();
        if (u.getRawUserInfo() != null) {
            String[] up = u.getRawUserInfo().split(":", 2);
            props.setProperty("user", URLDecoder.decode(up[0], StandardCharsets.UTF_8));
            if (up.length > 1) {
                props.setProperty("password", URLDecoder.decode(up[1], StandardCharsets.UTF_8));
            }
        }
        String tag = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
        this.schema = "tl_bench_" + tag;
        this.rawSchema = "tl_bench_raw_" + tag;
        this.monitor = connect();
        try (Statement s = monitor.createStatement()) {
            s.execute("CREATE SCHEMA " + rawSchema);
            s.execute("CREATE TABLE " + rawSchema + ".raw_events (session_id text NOT NULL, seq bigint NOT NULL,"
                    + " payload text NOT NULL, PRIMARY KEY (session_id, seq))");
            s.execute("CREATE TABLE " + rawSchema + ".raw_docs (id text PRIMARY KEY, doc text NOT NULL)");
        }
    }

    /** Starts a durable server of the benchmark's own. */
    static PgTarget start() throws SQLException {
        PgServer server = PgServer.create(SERVER_SETTINGS);
        try {
            server.createDatabase("bench");
            return new PgTarget(server, server.url("bench"));
        } catch (RuntimeException | SQLException e) {
            server.close();
            throw e;
        }
    }

    /** Uses the database at {@code url} ({@code postgresql://user[:password]@host[:port]/db}) as it is. */
    static PgTarget at(String url) throws SQLException {
        return new PgTarget(null, url);
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, props);
    }

    @Override
    public String kind() {
        return "postgresql";
    }

    @Override
    public String describe() {
        try (Statement s = monitor.createStatement()) {
            StringBuilder out = new StringBuilder();
            try (ResultSet rs = s.executeQuery("SHOW server_version")) {
                rs.next();
                out.append("PostgreSQL ").append(rs.getString(1));
            }
            for (String setting : List.of("fsync", "synchronous_commit", "full_page_writes", "wal_level", "autovacuum",
                    "checkpoint_timeout", "shared_buffers")) {
                try (ResultSet rs = s.executeQuery("SHOW " + setting)) {
                    rs.next();
                    out.append(", ").append(setting).append('=').append(rs.getString(1));
                }
            }
            return out.append(server == null ? " (a server given by URL)" : " (the benchmark's own server, on loopback)").toString();
        } catch (SQLException e) {
            return "PostgreSQL (settings not readable: " + e.getMessage() + ")";
        }
    }

    @Override
    public StateStore openStore() {
        return PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema).withPoolWait(POOL_WAIT));
    }

    @Override
    public StateStore openSealedStore(dev.threadline.core.crypto.KeyProvider keys) {
        return PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema).withPoolWait(POOL_WAIT)
                .withKeys(keys));
    }

    @Override
    public String variant() {
        return "notifications off (PostgresStateStore.Options.withNotifications(false): no pg_notify in an append;"
                + " followers poll)";
    }

    @Override
    public StateStore openVariant() {
        return PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema)
                .withPoolWait(POOL_WAIT).withNotifications(false));
    }

    @Override
    public String storeConnections() {
        return "PostgresStateStore defaults (HikariCP pool of 10, READ COMMITTED, notifications on) but a pool wait of "
                + POOL_WAIT.toSeconds() + " s (the default is 30 s: how long a call waits for a connection while all ten are"
                + " busy; 256 sessions on 10 connections may wait longer on a loaded machine); schema " + schema;
    }

    @Override
    public RawFloor openRawFloor() throws SQLException {
        Connection c = connect();
        c.setAutoCommit(true);
        PreparedStatement insert = c.prepareStatement("INSERT INTO " + rawSchema + ".raw_events (session_id, seq, payload)"
                + " VALUES (?, ?, ?)");
        return new RawFloor() {
            @Override
            public void write(String session, long seq, String payload) throws SQLException {
                insert.setString(1, session);
                insert.setLong(2, seq);
                insert.setString(3, payload);
                insert.executeUpdate(); // auto-commit: one transaction, one WAL flush
            }

            @Override
            public Long heldBytes(String session) throws SQLException {
                return single(c, "SELECT pg_total_relation_size('" + rawSchema + ".raw_events')");
            }

            @Override
            public void putDocument(String key, String json) throws SQLException {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + rawSchema + ".raw_docs (id, doc) VALUES (?, ?)"
                        + " ON CONFLICT (id) DO UPDATE SET doc = excluded.doc")) {
                    ps.setString(1, key);
                    ps.setString(2, json);
                    ps.executeUpdate();
                }
            }

            @Override
            public void close() throws SQLException {
                insert.close();
                c.close();
            }
        };
    }

    @Override
    public String writtenBytesMethod() {
        return "WAL: pg_wal_lsn_diff of pg_current_wal_lsn() before and after (the whole server's WAL)";
    }

    @Override
    public synchronized Long writtenBytes() throws SQLException {
        return single(monitor, "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint");
    }

    @Override
    public String heldBytesMethod() {
        return "pg_total_relation_size of every table of Threadline's schema (heap, indexes, TOAST), before and after";
    }

    @Override
    public synchronized Long heldBytes(String tenant, String session) throws SQLException {
        return single(monitor, "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '" + schema + "' AND c.relkind = 'r'");
    }

    @Override
    public int readDocument(String key) throws Exception {
        JavaType type = Json.mapper().getTypeFactory().constructCollectionType(List.class, Event.class);
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("SELECT doc FROM " + rawSchema + ".raw_docs WHERE id = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no document " + key);
                }
                List<Event> events = Json.mapper().readValue(rs.getString(1), type);
                return events.size();
            }
        }
    }

    private static Long single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : null;
        }
    }

    @Override
    public void close() throws SQLException {
        try (Statement s = monitor.createStatement()) {
            if (server == null) { // a server of someone else's: leave nothing behind
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                s.execute("DROP SCHEMA IF EXISTS " + rawSchema + " CASCADE");
            }
        } finally {
            monitor.close();
            if (server != null) {
                server.close();
            }
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "postgresql (%s)", url.replaceAll("(//[^/:@]*:)[^@/]*@", "$1***@"));
    }
}
