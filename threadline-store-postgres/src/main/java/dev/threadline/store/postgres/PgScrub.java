package dev.threadline.store.postgres;

import dev.threadline.core.error.StorageException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code StateStore.scrub()} on PostgreSQL: after an erasure's deletes, the dead rows' bytes are still
 * in the tables' pages (a plain VACUUM frees the space but leaves the bytes until reused) and in the
 * write-ahead log. This rewrites the store's tables ({@code VACUUM (FULL, ANALYZE)}: new files holding
 * only live rows, the old ones removed at the next checkpoint, statistics sampled afresh), then switches
 * the WAL to a new segment and checkpoints twice, so the segments holding the erased rows are no longer
 * needed: with {@code wal_recycle=off} the server deletes them, otherwise it renames them for reuse and
 * their bytes stay until overwritten (docs/storage.md). Every step that the store's role may not run
 * (CHECKPOINT needs superuser or {@code pg_checkpoint}, {@code pg_switch_wal} superuser or a grant) is
 * named in the answer instead of failing the erasure.
 */
final class PgScrub {
    /** The store's tables, in every schema version; a missing one (an older schema) is skipped. */
    private static final Set<String> TABLES = Set.of("sessions", "heads", "events", "segments", "snapshots", "variables",
            "commands", "interrupts", "journal_text", "history_bases");

    private PgScrub() {}

    /** Scrubs through a connection of its own without a statement timeout (a rewrite takes as long as the tables are big). */
    static String run(Db db, String schema) {
        try (Connection c = db.dedicated(schema)) {
            c.setNetworkTimeout(Runnable::run, 0);
            c.setAutoCommit(true); // VACUUM cannot run inside a transaction
            List<String> tables = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")) {
                while (rs.next()) {
                    if (TABLES.contains(rs.getString(1))) {
                        tables.add(rs.getString(1));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String t : tables) {
                    s.execute("VACUUM (FULL, ANALYZE) " + t);
                }
            }
            String wal = wal(c);
            return "postgresql: " + tables.size() + " tables rewritten (VACUUM FULL, ANALYZE): no dead row left in them; " + wal;
        } catch (SQLException e) {
            throw new StorageException("scrub the PostgreSQL store (VACUUM FULL of its tables): " + e.getMessage(), e);
        }
    }

    /** Switch and checkpoint, twice; what could not be done is said, not thrown. */
    private static String wal(Connection c) {
        try (Statement s = c.createStatement()) {
            for (int i = 0; i < 2; i++) {
                s.execute("SELECT pg_switch_wal()");
                s.execute("CHECKPOINT");
            }
            return "write-ahead log switched and checkpointed: its older segments are removed (wal_recycle=off) or"
                    + " recycled by the server";
        } catch (SQLException e) {
            return "the write-ahead log was NOT switched and checkpointed (" + e.getMessage().strip()
                    + "): its segments keep the erased rows until the server recycles them; a superuser's"
                    + " `SELECT pg_switch_wal(); CHECKPOINT;` finishes it";
        }
    }
}
