package dev.threadline.store.postgres;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;

/**
 * A store behind a transaction-pooling connection pooler such as pgbouncer (ADR 0048). The store URL's
 * {@code direct=host:port} parameter names the PostgreSQL server itself; with it, the store keeps
 * every piece of session state off the pooler's connections: the pool's connections use no named
 * server-side prepared statements ({@code prepareThreshold=0}) and set nothing for the session (the
 * schema and the isolation level are set per transaction, {@code SET LOCAL} / {@code SET TRANSACTION},
 * as the first statement of each), and what needs a session of its own (LISTEN, the notifier, schema
 * creation and upgrade, scrubbing) runs on a connection to the direct address. Without the parameter
 * nothing changes. {@link #check} refuses, at open, a store that reaches a pooler without it.
 * Immutable, thread-safe.
 *
 * @param poolUrl   the pgjdbc URL of the pool's connections (the store URL without {@code direct})
 * @param directUrl the pgjdbc URL of the server itself, or null when there is no {@code direct} parameter
 * @param prelude   the SQL every transaction of the pool starts with (null when none is needed)
 */
record Pooling(String poolUrl, String directUrl, String prelude) {
    /** The store URL parameter naming the PostgreSQL server itself. */
    static final String PARAM = "direct";
    private static final Pattern URL = Pattern.compile("(jdbc:postgresql://)([^/?]*)(/[^?]*)?(?:\\?(.*))?");
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._-]+):([0-9]{1,5})");

    /** The pooling of {@code url} for a store of {@code schema} (null: none), SERIALIZABLE or not. */
    static Pooling of(PgUrl url, String schema, boolean serializable) {
        Matcher m = URL.matcher(url.jdbcUrl());
        if (!m.matches() || m.group(4) == null) {
            return new Pooling(url.jdbcUrl(), null, null);
        }
        List<String> kept = new ArrayList<>();
        String direct = null;
        for (String param : m.group(4).split("&")) {
            if (!param.equals(PARAM) && !param.startsWith(PARAM + "=")) {
                kept.add(param);
            } else if (direct != null) {
                throw refused("is given twice; give the PostgreSQL server's own host:port once");
            } else {
                direct = URLDecoder.decode(param.substring(Math.min(param.length(), PARAM.length() + 1)), StandardCharsets.UTF_8);
            }
        }
        if (direct == null) {
            return new Pooling(url.jdbcUrl(), null, null);
        }
        Matcher hp = HOST_PORT.matcher(direct);
        if (!hp.matches() || Integer.parseInt(hp.group(2)) < 1 || Integer.parseInt(hp.group(2)) > 65535) {
            throw refused("'" + direct + "' is not host:port (a host name, IPv4 address or [IPv6] address, a colon and a port"
                    + " 1-65535): it names the PostgreSQL server itself, behind the pooler, e.g. direct=db1.internal:5432");
        }
        String query = kept.isEmpty() ? "" : "?" + String.join("&", kept);
        String path = m.group(3) == null ? "/" : m.group(3);
        String prelude = (serializable ? "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE" : "")
                + (serializable && schema != null ? "; " : "")
                + (schema != null ? "SET LOCAL search_path TO '" + schema.replace("'", "''") + "'" : "");
        return new Pooling(m.group(1) + m.group(2) + path + query, m.group(1) + direct + path + query,
                prelude.isEmpty() ? null : prelude);
    }

    private static InvalidInputException refused(String reason) {
        return new InvalidInputException("store url parameter " + PARAM, reason);
    }

    /** Whether the store runs behind a pooler (a {@code direct} parameter was given). */
    boolean pooled() {
        return directUrl != null;
    }

    /** The pool's connection properties: {@code base}, and no named prepared statements when pooled. */
    Properties poolProperties(Properties base) {
        Properties p = new Properties();
        p.putAll(base);
        if (pooled()) {
            // pgbouncer before 1.21 (Debian 12 has 1.18) passes a named statement to whichever server connection
            // runs the next transaction: "prepared statement S_1 does not exist"; unnamed ones live one round trip
            p.setProperty("prepareThreshold", "0");
        }
        return p;
    }

    /** Starts a transaction on {@code c} with the prelude (pooled, with a prelude only). */
    void begin(Connection c) throws SQLException {
        c.setAutoCommit(false);
        prelude(c);
    }

    /** Runs the prelude, first in a transaction already begun (pooled, with a prelude only). */
    void prelude(Connection c) throws SQLException {
        if (prelude != null) {
            try (Statement s = c.createStatement()) {
                s.execute(prelude);
            }
        }
    }

    /** Whether reads, auto-commit otherwise, run as transactions here (for the prelude's transaction-local settings). */
    boolean wrapsReads() {
        return prelude != null;
    }

    /**
     * At open: refuses a store whose connections reach a pooler (the backend key pgjdbc got at connect
     * is not the server process that answers: pgbouncer makes up a key of its own, since the client has
     * no server process of its own) without {@code direct}, and a {@code direct} address that is a
     * pooler too. One line naming the setting to change each. A pooler that refuses pgjdbc's startup
     * parameters is named with the pgbouncer setting that lets them through.
     */
    static void check(Db db) {
        Pooling pooling = db.pooling();
        boolean behind;
        try (Connection c = db.unpooled()) {
            behind = !direct(c);
        } catch (SQLException e) {
            throw startupParameter(db, db.failure("check for a connection pooler", e));
        }
        if (behind && !pooling.pooled()) {
            throw new InvalidInputException("store url", "'" + db.url().shown() + "' reaches PostgreSQL through a connection"
                    + " pooler (pgbouncer?): the backend key of the connection is not the server process that answers, so LISTEN"
                    + " and session settings would not last; add the parameter " + PARAM + "=host:port naming the PostgreSQL server"
                    + " itself (docs/storage.md, \"pgbouncer\")");
        }
        if (pooling.pooled()) {
            boolean direct;
            try (Connection c = db.dedicated(null)) {
                direct = direct(c);
            } catch (SQLException e) {
                throw new StorageException("store unavailable: " + PARAM + "=" + hostOf(pooling.directUrl()) + " of " + db.url().shown()
                        + " (connect to the server directly): " + dev.threadline.store.jdbc.OneLine.of(e.getMessage()), e);
            }
            if (!direct) {
                throw refused("'" + hostOf(pooling.directUrl()) + "' reaches a connection pooler too (the backend key of the"
                        + " connection is not the server process that answers): name the PostgreSQL server itself, not the pooler");
            }
        }
    }

    /** Whether {@code c}'s backend key names the server process that answers: no pooler between. */
    private static boolean direct(Connection c) throws SQLException {
        int key = c.unwrap(PGConnection.class).getBackendPID();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            return rs.next() && rs.getInt(1) == key;
        }
    }

    /**
     * {@code e}, or, when a pooler refused a startup parameter (pgbouncer passes on only the few it
     * tracks), one line naming what to change: a parameter of the store URL that pgjdbc sends at startup
     * ({@code currentSchema}, {@code options}) is to be removed, since a transaction pooler keeps no session
     * setting; pgjdbc's own {@code extra_float_digits} (which 1.18 lets through; older pgbouncers refused it)
     * is let through with {@code ignore_startup_parameters}.
     */
    private static RuntimeException startupParameter(Db db, StorageException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String msg = t.getMessage();
            int at = msg == null ? -1 : msg.indexOf("unsupported startup parameter");
            if (at >= 0) {
                Matcher name = Pattern.compile("unsupported startup parameter:?\\s*([A-Za-z_]+)").matcher(msg.substring(at));
                String param = name.find() ? name.group(1) : "?";
                String change = param.equals("extra_float_digits")
                        ? "add ignore_startup_parameters = extra_float_digits to its [pgbouncer] settings"
                        : "remove the store URL parameter that sets it (currentSchema sets search_path; options), since a"
                        + " transaction pooler keeps no session setting: give the schema as Options.withSchema";
                return new StorageException("postgres store " + db.url().shown() + ": the connection pooler refused the"
                        + " startup parameter " + param + ": " + change + " (docs/storage.md, \"pgbouncer\")", e);
            }
        }
        return e;
    }

    private static String hostOf(String jdbcUrl) {
        Matcher m = URL.matcher(jdbcUrl);
        return m.matches() ? m.group(2) : jdbcUrl;
    }
}
