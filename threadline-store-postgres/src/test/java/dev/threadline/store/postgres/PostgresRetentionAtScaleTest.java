package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.process.RetentionAtScale;
import dev.threadline.harness.servers.PgServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's retention acceptance on PostgreSQL ({@link RetentionAtScale}), two processes running turns
 * meanwhile: 1,000 sessions in {@code ./test}, 300 expiring; the acceptance's 10,000 with
 * {@code -Dthreadline.retention.sessions=10000} (docs/benchmarks.md). Size: the database after
 * {@code VACUUM} (what its relations take; a plain vacuum makes the dead rows' space reusable, it does
 * not give it back). Figures in {@code target/retention-postgres.txt}.
 */
class PostgresRetentionAtScaleTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void exactlyTheExpiredSessionsGoAndTheRestIsByteIdentical() throws Exception {
        PgServer.shared().createDatabase("retention");
        int n = Integer.getInteger("threadline.retention.sessions", 1_000);
        RetentionAtScale.Result r = RetentionAtScale.run(dir, PgServer.shared().url("retention"), n, PostgresRetentionAtScaleTest::size,
                Path.of("target", "retention-postgres.txt"));
        assertThat(r.removed()).isEqualTo(n * 3 / 10);
    }

    private static String size() {
        try (Connection c = PgServer.shared().connect("retention"); Statement s = c.createStatement()) {
            s.execute("VACUUM");
            try (ResultSet rs = s.executeQuery("SELECT pg_database_size(current_database()),"
                    + " (SELECT sum(n_live_tup) FROM pg_stat_user_tables), (SELECT sum(n_dead_tup) FROM pg_stat_user_tables)")) {
                rs.next();
                return rs.getLong(1) + " bytes (" + rs.getLong(2) + " live rows, " + rs.getLong(3) + " dead)";
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot measure the retention database", e);
        }
    }
}
