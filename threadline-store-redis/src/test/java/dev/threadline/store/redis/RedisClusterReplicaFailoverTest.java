package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.Resp;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, "Redis with replicas", on a 3-master Cluster with one replica each (6 servers) and
 * replicated acknowledgements on ({@code replicas=1}):
 * <ul>
 *   <li>WAIT runs on the master that wrote: with the replica of a session's master stalled (SIGSTOP:
 *       still connected, confirming nothing), its step fails with an unknown outcome, while a session
 *       on another master goes on (a WAIT sent to another master, whose replica is healthy, would
 *       pass);</li>
 *   <li>the cluster's own failover: a master SIGKILLed under writers, the cluster reports ok with its
 *       replica promoted, the old master restarts on its files and rejoins as a replica, {@link #KILLS}
 *       times (system property {@code threadline.redis.clusterFailovers}, default 3), each time another
 *       master; no acknowledged step is lost.</li>
 * </ul>
 */
class RedisClusterReplicaFailoverTest {
    private static final int KILLS = Integer.getInteger("threadline.redis.clusterFailovers", 3);
    private static final String ACKS = "?replicas=1&replicaTimeout=2s"; // long enough for a loaded machine

    @Test
    void aStalledReplicaFailsOnlyTheStepsOfItsMaster() throws IOException {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start(1);
             RedisStateStore store = RedisStateStore.open(cluster.url() + ACKS, options())) {
            assertThat(store.durability()).contains("redis cluster").contains("steps acknowledged after 1 replica confirms");
            RedisProcess master = cluster.masters().get(0);
            SessionKey stalled = on(master, true);
            SessionKey other = on(master, false);
            long[] epochs = {begin(store, stalled), begin(store, other)};
            RedisProcess replica = replicaOf(cluster, master);
            replica.pause();
            try {
                assertThatThrownBy(() -> store.append(AppendRequest.of(stalled, 1, epochs[0], StoreFixtures.messages(stalled.id(), 2, 1))))
                        .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage())
                                .contains("only 0 of 1 replicas confirmed it within 2s").contains("outcome is unknown"));
                assertThat(store.append(AppendRequest.of(other, 1, epochs[1], StoreFixtures.messages(other.id(), 2, 1)))).isEqualTo(2);
            } finally {
                replica.resume();
            }
            assertThat(store.append(AppendRequest.of(stalled, 2, epochs[0], StoreFixtures.messages(stalled.id(), 3, 1)))).isEqualTo(3);
        }
    }

    @Test
    void theClustersOwnFailoverLosesNoAcknowledgedStep() throws Exception {
        long started = System.nanoTime();
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start(1);
             RedisStateStore store = RedisStateStore.open(cluster.url() + ACKS, options())) {
            AckedWriters writers = new AckedWriters(store, 6, "c").start(); // replicated acks: the set-up is on the replicas
            try {
                for (int kill = 0; kill < KILLS; kill++) {
                    writers.awaitMore(40);
                    RedisProcess victim = cluster.masters().get(kill % 3);
                    victim.kill();
                    RedisProcess.waitFor(() -> cluster.masters().size() == 3, "a replica to take over from " + victim.port());
                    cluster.awaitOk();
                    victim.restart();
                    RedisProcess.waitFor(() -> victim.info("replication").contains("role:slave"),
                            "the old master " + victim.port() + " to rejoin as a replica");
                    cluster.awaitOk();
                }
                writers.awaitMore(40);
            } finally {
                writers.close();
            }
            long lost = writers.lost(store);
            System.out.printf("redis cluster failover %s: %d masters SIGKILLed and replaced by their replicas in %d ms;"
                            + " %d steps acknowledged, %d lost; %d calls failed (unknown outcome or no master)%n", ACKS, KILLS,
                    Duration.ofNanos(System.nanoTime() - started).toMillis(), writers.acknowledged(), lost, writers.failures());
            assertThat(lost).as("acknowledged steps lost over %d cluster failovers", KILLS).isZero();
        }
    }

    private static RedisStateStore.Options options() {
        return RedisStateStore.Options.defaults().withCommandTimeout(Duration.ofSeconds(5));
    }

    private static long begin(RedisStateStore store, SessionKey key) {
        SessionInfo info = StoreFixtures.root(key.id(), "acme", "u");
        store.create(info, List.of(StoreFixtures.first(info)));
        return ((LeaseResult.Acquired) store.acquire(key, "w", Duration.ofMinutes(5), null)).lease().epoch();
    }

    /** A session whose slot {@code master} serves ({@code mine}) or does not. */
    private static SessionKey on(RedisProcess master, boolean mine) throws IOException {
        for (int i = 0; ; i++) {
            SessionKey k = new SessionKey("acme", (mine ? "m" : "o") + i);
            String slot = Resp.call(master.port(), "CLUSTER", "KEYSLOT", new Keys("tl").session(k)[Keys.META]);
            if (served(master, Integer.parseInt(slot.substring(1))) == mine) {
                return k;
            }
        }
    }

    private static boolean served(RedisProcess master, int slot) throws IOException {
        String id = Resp.call(master.port(), "CLUSTER", "MYID");
        String nodes = Resp.call(master.port(), "CLUSTER", "NODES");
        for (String line : nodes.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f[0].equals(id)) {
                for (int i = 8; i < f.length; i++) {
                    String[] range = f[i].split("-");
                    int from = Integer.parseInt(range[0]);
                    int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                    if (slot >= from && slot <= to) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The running replica whose master is {@code master}. */
    private static RedisProcess replicaOf(RedisClusterProcesses cluster, RedisProcess master) {
        return cluster.nodes().stream().filter(n -> n.alive() && n.info("replication").contains("master_port:" + master.port() + "\r"))
                .findFirst().orElseThrow();
    }
}
