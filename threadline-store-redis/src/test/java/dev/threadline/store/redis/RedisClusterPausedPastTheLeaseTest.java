package dev.threadline.store.redis;

import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseAcceptance;
import dev.threadline.harness.process.LeaseCycles;
import dev.threadline.harness.servers.RedisClusterProcesses;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, acceptance "two processes on one Redis Cluster": {@link LeaseAcceptance} (64 clients, 8 shared
 * sessions, 50 SIGSTOPs past the 1 s lease and 50 SIGKILLs with restarts, take-over within 2 x the lease,
 * zero history violations) on a throwaway 3-master cluster, each child opening
 * {@code redis-cluster://...}. Every step is one script on the server, so no paused client ever holds
 * anything another one waits for. {@code -Dthreadline.leaseCycles=N} runs N cycles of each kind
 * instead of 20 (the default suite's; the acceptance is 50, and the soak runs them without end).
 */
class RedisClusterPausedPastTheLeaseTest {
    private static final int CYCLES = Integer.getInteger("threadline.leaseCycles", 20);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves the children's stdout and stderr
    Path dir;

    @Test
    void processesStoppedOrKilledPastTheirLeaseAreTakenOverAndNoHistoryIsViolated() throws Exception {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start(); Fleet fleet = new Fleet(dir, cluster.url())) {
            LeaseAcceptance.run(fleet, "Redis Cluster (3 masters)", CYCLES, LeaseCycles.WriterBlock.NEVER);
        }
    }
}
