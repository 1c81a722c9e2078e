package dev.threadline.store.sqlite.multiprocess;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.harness.process.CrashPointRuns;
import dev.threadline.harness.process.Fleet;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5 on SQLite: the crash points the turn workload reaches (steps, snapshots, the sealing of
 * transcript segments, lease renewals and take-overs, a tool call run but not recorded), each halting a
 * process that shares the file with another one; then the history checker judges (see
 * {@link CrashPointRuns}). The default suite runs {@link #DEFAULTS} once each (a JVM start per halt);
 * {@code -Dthreadline.crashPoints=all -Dthreadline.crashRuns=3} is the acceptance run (docs/reliability.md).
 */
class SqliteCrashPointsTest {
    /** The points a process running turns reaches on SQLite (compaction, MCP, sweeps and erasure need other work). */
    static final List<CrashPoint> TURN_POINTS = List.of(CrashPoint.STEP_BEFORE_APPEND, CrashPoint.STEP_AFTER_APPEND,
            CrashPoint.STEP_BEFORE_REPLY, CrashPoint.SNAPSHOT_WRITE, CrashPoint.SEGMENT_WRITE, CrashPoint.LEASE_AFTER_RENEW,
            CrashPoint.LEASE_AFTER_TAKE_OVER, CrashPoint.TOOL_AFTER_CALL);
    static final List<CrashPoint> DEFAULTS = List.of(CrashPoint.STEP_AFTER_APPEND, CrashPoint.SEGMENT_WRITE,
            CrashPoint.LEASE_AFTER_TAKE_OVER, CrashPoint.TOOL_AFTER_CALL);
    private static final List<String> SESSIONS = List.of("c0", "c1", "c2");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aProcessHaltedAtAnyPointOfTheStepPathLeavesNothingHalfWritten() throws Exception {
        Map<String, Object> args = Map.of("sessions", String.join(",", SESSIONS), "clients", 2, "skill", "slow",
                "ttlMillis", 1000, "waitMillis", 3000, "snapshotEvery", 7);
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("crash.db"))) {
            CrashPointRuns runs = new CrashPointRuns(fleet, args);
            runs.run(CrashPointRuns.selected(TURN_POINTS, DEFAULTS), CrashPointRuns.runs(), "acme", SESSIONS);
            System.out.println(runs.report());
        }
    }
}
