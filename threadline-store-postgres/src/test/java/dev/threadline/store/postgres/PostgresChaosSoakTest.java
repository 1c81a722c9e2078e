package dev.threadline.store.postgres;

import dev.threadline.harness.process.ChaosSoak;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseAcceptance;
import dev.threadline.harness.servers.PgFailoverPair;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 6 on PostgreSQL with failover: {@link ChaosSoak} with two nodes on a {@link PgFailoverPair}
 * (a primary and its strict synchronous standby, one multi-host URL), SIGSTOP and SIGKILL cycles for
 * {@code threadline.soakSeconds} (default 90 s; {@code ./test soak} runs 1,200 s) and a failover every
 * {@code threadline.soakFailoverSeconds} (default 40 s), the primary's client connections sampled with the
 * nodes every {@code threadline.soakSampleSeconds} (default 20). A pause that finds the node inside a
 * transaction of several statements is resumed at once (see {@link PostgresPausedPastTheLeaseTest}). Writes
 * {@code soak.csv} and {@code soak.svg} under {@code target/soak/postgres}.
 */
class PostgresChaosSoakTest {
    private static final String DB = "soak";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves the children's stdout and stderr
    Path dir;

    @Test
    void twoNodesStoppedKilledAndFailedOverForMinutesViolateNoHistoryAndLeakNothing() throws Exception {
        try (PgFailoverPair pair = PgFailoverPair.start(DB);
             Fleet fleet = new Fleet(dir, pair.url(DB), name -> pair.url(DB) + "&ApplicationName=" + appName(name))) {
            ChaosSoak.run(fleet, new ChaosSoak.Settings("PostgreSQL (primary and synchronous standby)",
                    LeaseAcceptance.SESSIONS, LeaseAcceptance.CLIENTS_PER_SESSION,
                    Duration.ofSeconds(Integer.getInteger("threadline.soakSeconds", 90)),
                    Duration.ofSeconds(Integer.getInteger("threadline.soakSampleSeconds", 20)),
                    Duration.ofSeconds(Integer.getInteger("threadline.soakFailoverSeconds", 40)),
                    () -> "failover " + (pair.failovers() + 1) + ": new synchronous standby after " + pair.failover().toMillis() + " ms",
                    () -> count(pair, "SELECT count(*) FROM pg_stat_activity WHERE datname = ?", DB),
                    paused -> count(pair, "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
                            + " AND (state LIKE 'idle in transaction%' OR state = 'active' AND xact_start < query_start)",
                            appName(paused.name())) > 0,
                    Path.of("target", "soak", "postgres")));
        }
    }

    private static String appName(String child) {
        return child.replace('#', '-');
    }

    private static long count(PgFailoverPair pair, String sql, String arg) {
        try (Connection c = pair.primary().connect(DB); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_activity on the primary: " + e.getMessage(), e);
        }
    }
}
