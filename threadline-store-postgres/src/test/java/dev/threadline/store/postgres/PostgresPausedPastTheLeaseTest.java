package dev.threadline.store.postgres;

import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseAcceptance;
import dev.threadline.harness.servers.PgServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, acceptance "two processes on one PostgreSQL": {@link LeaseAcceptance} (64 clients, 8 shared
 * sessions, 50 SIGSTOPs past the 1 s lease and 50 SIGKILLs with restarts, take-over within 2 x the lease,
 * zero history violations) on a database of the test server. {@code -Dthreadline.leaseCycles=N} runs N
 * cycles of each kind; the default suite runs 20 (the acceptance is 50; the soak runs them without end).
 *
 * <p>A step that carries a command record is a transaction of several statements, holding the session
 * row's lock until it commits; a process stopped inside one blocks every writer of that row (the lease
 * lives there) until it resumes or dies. Such a pause is no lease test: each child connects with its
 * name as {@code ApplicationName}, and a pause that finds one of its connections inside such a
 * transaction in {@code pg_stat_activity} is resumed at once and counted apart.
 */
class PostgresPausedPastTheLeaseTest {
    private static final int CYCLES = Integer.getInteger("threadline.leaseCycles", 20);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves the children's stdout and stderr
    Path dir;

    @Test
    void processesStoppedOrKilledPastTheirLeaseAreTakenOverAndNoHistoryIsViolated() throws Exception {
        String db = "mp_lease_" + ProcessHandle.current().pid();
        PgServer.shared().createDatabase(db);
        String url = PgServer.shared().url(db);
        try (Fleet fleet = new Fleet(dir, url, name -> url + "?ApplicationName=" + appName(name))) {
            LeaseAcceptance.run(fleet, "PostgreSQL", CYCLES, paused -> busy(db, appName(paused.name())));
        }
    }

    private static String appName(String child) {
        return child.replace('#', '-');
    }

    /**
     * Whether a connection of that child is inside a transaction of several statements (a single
     * auto-commit statement runs to its end on the server whether its client is stopped or not).
     */
    private static boolean busy(String db, String appName) {
        try (Connection c = PgServer.shared().connect(db);
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
                     + " AND (state LIKE 'idle in transaction%' OR state = 'active' AND xact_start < query_start)")) {
            ps.setString(1, appName);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_activity: " + e.getMessage(), e);
        }
    }
}
