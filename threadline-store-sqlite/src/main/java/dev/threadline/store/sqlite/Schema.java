package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;
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
 * when a record's JSON does. Upgrades are an ordered list whose index is the version they start
 * from; a file is brought up through each of them in one transaction. The DDL is in {@link SchemaDdl}.
 */
final class Schema {
    /**
     * The table layout this code creates and reads. Version 3: sessions keyed by (tenant, id), events,
     * snapshots and commands by tenant and session, and each session's lease on its row. Version 4 adds
     * the {@code interrupts} table. Version 5 keeps events and snapshots in their keys' b-trees, the
     * event time as nanoseconds, and no type column (ADR 0025). Version 6 seals transcript segments;
     * version 7 adds each session's expiry and its index, for retention; version 8 the full-text
     * index of the messages ({@link TextIndex}); version 9 the bases of pruned histories (ADR 0045); version 10 the tenants' wrapped data
     * keys of encryption at rest (ADR 0049).
     */
    static final int VERSION = 10;

    /** {@code UPGRADES.get(v - 1)} turns a version {@code v} file into a version {@code v + 1} one. */
    private static final List<List<String>> UPGRADES = List.of(SchemaDdl.UPGRADE_1_TO_2, SchemaDdl.UPGRADE_2_TO_3,
            SchemaDdl.UPGRADE_3_TO_4, SchemaDdl.UPGRADE_4_TO_5,
            SchemaDdl.UPGRADE_5_TO_6, SchemaDdl.UPGRADE_6_TO_7, TextIndex.DDL, List.of(SchemaDdl.HISTORY_BASES),
            List.of(SchemaDdl.DATA_KEYS));

    private Schema() {}

    /**
     * Refuses, before anything is written to it, a file written by a newer Threadline or one that
     * holds someone else's tables; then puts the file in WAL mode and creates or upgrades the tables.
     * The first check reads only (no WAL switch, no transaction that writes), so a refused file is left
     * byte for byte as it was.
     */
    static void prepare(Connection c, Path file) throws SQLException {
        refuseForeignOrNewer(c, file);
        String mode = queryString(c, "PRAGMA journal_mode = WAL");
        if (!"wal".equalsIgnoreCase(mode)) {
            throw new StorageException("sqlite store " + file + ": cannot switch to WAL journal mode (got '" + mode
                    + "'); WAL needs a local file system that supports shared memory");
        }
        Connections.exec(c, "BEGIN IMMEDIATE");
        try {
            int version = refuseForeignOrNewer(c, file); // again under the write lock: another process may have been first
            if (version == 0) {
                for (String ddl : SchemaDdl.TABLES) {
                    Connections.exec(c, ddl);
                }
                for (String ddl : SchemaDdl.INDEXES) {
                    Connections.exec(c, ddl);
                }
                for (String ddl : TextIndex.DDL) {
                    Connections.exec(c, ddl);
                }
                Connections.exec(c, SchemaDdl.HISTORY_BASES);
                Connections.exec(c, SchemaDdl.DATA_KEYS);
            } else {
                Connections.exec(c, "PRAGMA defer_foreign_keys = ON"); // rows are copied parent and child in any order
                Instants.registerNanosFunction(c); // threadline_nanos(text), for the upgrades to versions 5 and 7
                for (int v = version; v < VERSION; v++) {
                    for (String ddl : UPGRADES.get(v - 1)) {
                        Connections.exec(c, ddl);
                    }
                    if (v + 1 == 8) {
                        TextIndex.indexExisting(c); // the messages the file held before it had an index
                    }
                }
            }
            if (version != VERSION) {
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

    /** The file's layout version; refuses a newer one or a file of another program (tables, version 0). Reads only. */
    private static int refuseForeignOrNewer(Connection c, Path file) throws SQLException {
        int version = (int) queryLong(c, "PRAGMA user_version");
        if (version > VERSION) {
            throw new StorageException("sqlite store " + file + " has schema version " + version + ", newer than the "
                    + VERSION + " this Threadline understands; upgrade Threadline to open it (nothing was changed)");
        }
        if (version == 0) {
            long tables = queryLong(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
            if (tables > 0) {
                throw new StorageException("sqlite store " + file + " already holds " + tables + " tables that are not"
                        + " Threadline's (user_version 0); choose another file (nothing was changed)");
            }
        }
        return version;
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
