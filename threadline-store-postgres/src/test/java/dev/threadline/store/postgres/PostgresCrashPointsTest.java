package dev.threadline.store.postgres;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.harness.process.CrashPointRuns;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.servers.PgServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5 on PostgreSQL: the crash points the turn workload reaches (steps, snapshots, lease renewals
 * and take-overs, a tool call run but not recorded; this store seals no segments, ADR 0031), each halting a
 * process that shares the database with another one; then the history checker judges (see
 * {@link CrashPointRuns}). The default suite runs {@link #DEFAULTS} once each;
 * {@code -Dthreadline.crashPoints=all -Dthreadline.crashRuns=3} is the acceptance run (docs/reliability.md).
 */
class PostgresCrashPointsTest {
    static final List<CrashPoint> TURN_POINTS = List.of(CrashPoint.STEP_BEFORE_APPEND, CrashPoint.STEP_AFTER_APPEND,
            CrashPoint.STEP_BEFORE_REPLY, CrashPoint.SNAPSHOT_WRITE, CrashPoint.LEASE_AFTER_RENEW,
            CrashPoint.LEASE_AFTER_TAKE_OVER, CrashPoint.TOOL_AFTER_CALL);
    static final List<CrashPoint> DEFAULTS = List.of(CrashPoint.STEP_AFTER_APPEND, CrashPoint.LEASE_AFTER_TAKE_OVER);
    private static final List<String> SESSIONS = List.of("c0", "c1", "c2");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aProcessHaltedAtAnyPointOfTheStepPathLeavesNothingHalfWritten() throws Exception {
        PgServer server = PgServer.shared();
        server.createDatabase("crashpoints");
        Map<String, Object> args = Map.of("sessions", String.join(",", SESSIONS), "clients", 2, "skill", "slow",
                "ttlMillis", 1000, "waitMillis", 3000, "snapshotEvery", 7);
        try (Fleet fleet = new Fleet(dir, server.url("crashpoints"))) {
            CrashPointRuns runs = new CrashPointRuns(fleet, args);
            runs.run(CrashPointRuns.selected(TURN_POINTS, DEFAULTS), CrashPointRuns.runs(), "acme", SESSIONS);
            System.out.println(runs.report());
        }
    }
}
