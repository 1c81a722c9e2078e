package dev.threadline.store.sqlite;

import dev.threadline.core.StorageException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The tables of a Threadline SQLite file and their version ({@code PRAGMA user_version}). The
 * layout version is separate from the version each row's payload carries ({@code v}, see
 * {@link dev.threadline.core.internal.json.RecordCodec}): the first changes when tables change, the second
 * when a record's JSON does.
 */
final class Schema {
    /**
     * The table layout this code creates and reads. Version 2 (ADR 0011): the sessions indexes no
     * longer hold {@code updated_at}, which every append changes, so an append rewrites two fewer pages.
     */
    static final int VERSION = 2;

    /** Version 1 to 2: swap the two sessions indexes that held {@code updated_at}. Rows are unchanged. */
    private static final List<String> UPGRADE_1_TO_2 = List.of(
            "DROP INDEX IF EXISTS sessions_by_tenant",
            "DROP INDEX IF EXISTS sessions_by_user",
            "CREATE INDEX sessions_by_tenant ON sessions(tenant, id)",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)");

    private static final List<String> DDL = List.of("""
            CREATE TABLE sessions (
              id          TEXT PRIMARY KEY,
              tenant      TEXT NOT NULL,
              user_id     TEXT NOT NULL,
              parent_id   TEXT REFERENCES sessions(id),
              parent_seq  INTEGER NOT NULL,
              info        TEXT NOT NULL,
              head_seq    INTEGER NOT NULL,
              created_at  INTEGER NOT NULL,
              updated_at  INTEGER NOT NULL,
              v           INTEGER NOT NULL)""",
            "CREATE INDEX sessions_by_tenant ON sessions(tenant, id)",
            "CREATE INDEX sessions_by_user ON sessions(tenant, user_id, id)",
            "CREATE INDEX sessions_by_parent ON sessions(parent_id) WHERE parent_id IS NOT NULL",
            """
            CREATE TABLE events (
              session_id          TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
              seq                 INTEGER NOT NULL,
              step                INTEGER NOT NULL,
              time                TEXT NOT NULL,
              command_id          TEXT NOT NULL,
              source              TEXT NOT NULL,
              type                TEXT NOT NULL,
              touches_transcript  INTEGER NOT NULL,
              payload             TEXT NOT NULL,
              v                   INTEGER NOT NULL,
              PRIMARY KEY (session_id, seq))""",
            """
            CREATE TABLE snapshots (
              session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
              seq         INTEGER NOT NULL,
              payload     TEXT NOT NULL,
              v           INTEGER NOT NULL,
              PRIMARY KEY (session_id, seq))""",
            """
            CREATE TABLE variables (
              scope      TEXT NOT NULL,
              scope_key  TEXT NOT NULL,
              name       TEXT NOT NULL,
              value      TEXT NOT NULL,
              v          INTEGER NOT NULL,
              PRIMARY KEY (scope, scope_key, name))""");

    private Schema() {}

    /**
     * Puts the file in WAL mode and creates the tables if it is new; refuses a file written by a
     * newer Threadline or one that holds someone else's tables.
     */
    static void prepare(Connection c, Path file) throws SQLException {
        String mode = queryString(c, "PRAGMA journal_mode = WAL");
        if (!"wal".equalsIgnoreCase(mode)) {
            throw new StorageException("sqlite store " + file + ": cannot switch to WAL journal mode (got '" + mode
                    + "'); WAL needs a local file system that supports shared memory");
        }
        Connections.exec(c, "BEGIN IMMEDIATE");
        try {
            int version = (int) queryLong(c, "PRAGMA user_version");
            if (version > VERSION) {
                throw new StorageException("sqlite store " + file + " has schema version " + version + ", newer than the "
                        + VERSION + " this Threadline understands; upgrade Threadline to open it (nothing was changed)");
            }
            if (version == 0) {
                long tables = queryLong(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
                if (tables > 0) {
                    throw new StorageException("sqlite store " + file + " already holds " + tables + " tables that are not"
                            + " Threadline's (user_version 0); choose another file");
                }
                for (String ddl : DDL) {
                    Connections.exec(c, ddl);
                }
                Connections.exec(c, "PRAGMA user_version = " + VERSION);
            } else if (version == 1) {
                for (String ddl : UPGRADE_1_TO_2) {
                    Connections.exec(c, ddl);
                }
                Connections.exec(c, "PRAGMA user_version = " + VERSION);
            }
            Connections.exec(c, "COMMIT");
        } catch (SQLException | RuntimeException e) {
            try {
                Connections.exec(c, "ROLLBACK");
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    static long queryLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static String queryString(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
