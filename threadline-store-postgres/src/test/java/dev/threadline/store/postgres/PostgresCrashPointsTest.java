package dev.threadline.store.postgres;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.harness.process.CrashPointRuns;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.servers.PgServer;
import java.nio.file.Path;
import java.util.List;
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
    static final List<CrashPoint> DEFAULTS = List.of(CrashPoint.STEP_AFTER_APPEND, CrashPoint.LEASE_AFTER_TAKE_OVER);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aProcessHaltedAtAnyPointOfTheStepPathLeavesNothingHalfWritten() throws Exception {
        PgServer.shared().createDatabase("crashpoints");
        try (Fleet fleet = new Fleet(dir, PgServer.shared().url("crashpoints"))) {
            CrashPointRuns.runTurnPoints(fleet, false, DEFAULTS);
        }
    }
}
