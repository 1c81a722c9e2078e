package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.session.SessionInfo;
import dev.threadline.store.jdbc.SessionTable;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plans SQLite picks for the queries whose cost must not grow with the store. Regression, named
 * after the bug: the branches query had {@code ORDER BY id}, and SQLite answered it by walking the
 * tenant's {@code (tenant, id)} index to skip a sort, reading every session of the tenant on each call;
 * a retention sweep of 3,000 sessions among 10,000 took 72 s (16 ms a session; 0.6 ms with the index).
 */
class SqliteQueryPlansTest {
    @TempDir
    Path dir;

    @Test
    void branchesOfASessionAreFoundThroughTheParentIndexNotByWalkingTheTenant() throws Exception {
        Path db = dir.resolve("plans.db");
        try (SqliteStateStore store = SqliteStateStore.open(db)) {
            for (int i = 0; i < 50; i++) { // enough rows that a plan is a choice
                SessionInfo info = StoreFixtures.root("s-" + i, "t", "u");
                store.create(info, List.of(StoreFixtures.first(info)));
            }
        }
        String plan = plan(db, SessionTable.BRANCHES.replace("?", "'x'"));
        assertThat(plan).contains("USING INDEX sessions_by_parent").doesNotContain("sessions_by_tenant").doesNotContain("SCAN");
    }

    private static String plan(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN QUERY PLAN " + sql)) {
            List<String> lines = new ArrayList<>();
            while (rs.next()) {
                lines.add(rs.getString("detail"));
            }
            return String.join("\n", lines);
        }
    }
}
