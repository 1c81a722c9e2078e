package dev.threadline.store.redis;

import dev.threadline.core.fault.CrashPoint;
import dev.threadline.harness.process.CrashPointRuns;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5 on Redis (standalone, AOF appendfsync always): the crash points the turn workload reaches
 * (steps, snapshots, lease renewals and take-overs, a tool call run but not recorded; this store seals no
 * segments), each halting a process that shares the server with another one; then the history checker
 * judges (see {@link CrashPointRuns}). The default suite runs {@link #DEFAULTS} once each;
 * {@code -Dthreadline.crashPoints=all -Dthreadline.crashRuns=3} is the acceptance run (docs/reliability.md).
 */
class RedisCrashPointsTest {
    static final List<CrashPoint> DEFAULTS = List.of(CrashPoint.STEP_AFTER_APPEND, CrashPoint.LEASE_AFTER_TAKE_OVER);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aProcessHaltedAtAnyPointOfTheStepPathLeavesNothingHalfWritten() throws Exception {
        try (RedisProcess server = RedisProcess.start(List.of("--appendfsync", "always"));
             Fleet fleet = new Fleet(dir, server.url())) {
            CrashPointRuns.runTurnPoints(fleet, false, DEFAULTS);
        }
    }
}
