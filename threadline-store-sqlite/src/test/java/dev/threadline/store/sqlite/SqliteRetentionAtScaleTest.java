package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.process.RetentionAtScale;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's retention acceptance on SQLite ({@link RetentionAtScale}), two processes running turns
 * meanwhile: 1,000 sessions in {@code ./test}, 300 expiring; the acceptance's 10,000 with
 * {@code -Dthreadline.retention.sessions=10000} (docs/benchmarks.md). Size: the file after a truncating
 * checkpoint, and its free pages (SQLite reuses them; the file shrinks only with VACUUM). Figures in
 * {@code target/retention-sqlite.txt}.
 */
class SqliteRetentionAtScaleTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void exactlyTheExpiredSessionsGoAndTheRestIsByteIdentical() throws Exception {
        Path db = dir.resolve("r.db");
        int n = Integer.getInteger("threadline.retention.sessions", 1_000);
        RetentionAtScale.Result r = RetentionAtScale.run(dir, "sqlite:" + db, n, () -> size(db),
                Path.of("target", "retention-sqlite.txt"));
        assertThat(r.removed()).isEqualTo(n * 3 / 10);
    }

    private static String size(Path db) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 10000");
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            long free;
            try (ResultSet rs = s.executeQuery("PRAGMA freelist_count")) {
                free = rs.getLong(1);
            }
            return Files.size(db) + " bytes, " + free + " free pages";
        } catch (SQLException | java.io.IOException e) {
            throw new IllegalStateException("cannot measure " + db, e);
        }
    }
}
