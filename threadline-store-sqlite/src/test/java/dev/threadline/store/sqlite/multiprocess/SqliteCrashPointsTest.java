package dev.threadline.store.sqlite.multiprocess;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.harness.process.CrashPointRuns;
import dev.threadline.harness.process.Fleet;
import java.nio.file.Path;
import java.util.List;
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
    static final List<CrashPoint> DEFAULTS = List.of(CrashPoint.STEP_AFTER_APPEND, CrashPoint.SEGMENT_WRITE,
            CrashPoint.LEASE_AFTER_TAKE_OVER);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aProcessHaltedAtAnyPointOfTheStepPathLeavesNothingHalfWritten() throws Exception {
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("crash.db"))) {
            CrashPointRuns.runTurnPoints(fleet, true, DEFAULTS);
        }
    }
}
