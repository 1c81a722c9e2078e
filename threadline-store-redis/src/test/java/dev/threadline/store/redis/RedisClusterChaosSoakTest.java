package dev.threadline.store.redis;

import dev.threadline.harness.process.ChaosSoak;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseAcceptance;
import dev.threadline.harness.process.LeaseCycles;
import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 6 on Redis Cluster: {@link ChaosSoak} with two nodes on a 3-master cluster with a replica
 * each and replicated acknowledgements ({@code replicas=1}), SIGSTOP and SIGKILL cycles for
 * {@code threadline.soakSeconds} (default 90 s; {@code ./test soak} runs 1,200 s) and, every
 * {@code threadline.soakFailoverSeconds} (default 40 s), one master SIGKILLed in turn: its replica takes
 * over (the cluster's own failover), the old master restarts and rejoins as a replica. The masters'
 * client connections are sampled with the nodes every {@code threadline.soakSampleSeconds} (default 20).
 * Writes {@code soak.csv} and {@code soak.svg} under {@code target/soak/redis-cluster}.
 */
class RedisClusterChaosSoakTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves the children's stdout and stderr
    Path dir;

    private int failovers;

    @Test
    void twoNodesStoppedKilledAndFailedOverForMinutesViolateNoHistoryAndLeakNothing() throws Exception {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start(1);
             Fleet fleet = new Fleet(dir, cluster.url() + "?replicas=1&replicaTimeout=2s")) {
            ChaosSoak.run(fleet, new ChaosSoak.Settings("Redis Cluster (3 masters, a replica each, replicated acks)",
                    LeaseAcceptance.SESSIONS, LeaseAcceptance.CLIENTS_PER_SESSION,
                    Duration.ofSeconds(Integer.getInteger("threadline.soakSeconds", 90)),
                    Duration.ofSeconds(Integer.getInteger("threadline.soakSampleSeconds", 20)),
                    Duration.ofSeconds(Integer.getInteger("threadline.soakFailoverSeconds", 40)),
                    () -> failover(cluster), () -> clients(cluster), LeaseCycles.WriterBlock.NEVER,
                    Path.of("target", "soak", "redis-cluster")));
        }
    }

    /** SIGKILLs one master (in turn), waits for its replica to serve its slots, restarts it as a replica. */
    private String failover(RedisClusterProcesses cluster) {
        long t0 = System.nanoTime();
        RedisProcess victim = cluster.masters().get(failovers++ % 3);
        victim.kill();
        RedisProcess.waitFor(() -> cluster.masters().size() == 3, "a replica to take over from " + victim.port());
        cluster.awaitOk();
        long promoted = (System.nanoTime() - t0) / 1_000_000;
        victim.restart();
        RedisProcess.waitFor(() -> victim.info("replication").contains("role:slave"),
                "the old master " + victim.port() + " to rejoin as a replica");
        cluster.awaitOk();
        return "master " + victim.port() + " killed, its replica serving after " + promoted + " ms";
    }

    /** Client connections on the masters now ({@code connected_clients} of INFO clients, summed). */
    private static long clients(RedisClusterProcesses cluster) {
        long n = 0;
        for (RedisProcess m : cluster.masters()) {
            for (String line : m.info("clients").split("\\r?\\n")) {
                if (line.startsWith("connected_clients:")) {
                    n += Long.parseLong(line.substring("connected_clients:".length()).strip());
                }
            }
        }
        return n;
    }
}
