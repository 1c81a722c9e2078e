package dev.threadline.harness.servers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway 3-master Redis Cluster on loopback: three {@link RedisProcess}es with cluster mode on
 * (and, from {@link #start(int)}, that many replicas of each master), joined by
 * {@code redis-cli --cluster create}, ready once every node reports the cluster ok with all 16384 slots
 * served (a bounded poll). A cluster with replicas runs with a 2 s node timeout, so that a SIGKILLed
 * master is replaced by its replica (the cluster's own failover) within seconds. Not thread-safe.
 */
public final class RedisClusterProcesses implements AutoCloseable {
    private final List<RedisProcess> nodes;

    private RedisClusterProcesses(List<RedisProcess> nodes) {
        this.nodes = nodes;
    }

    /** Starts a cluster of 3 Redis masters on free loopback ports and waits until it serves. */
    public static RedisClusterProcesses start() {
        return start(0);
    }

    /**
     * Starts a cluster of 3 masters with {@code replicas} replicas each ({@code --cluster-replicas}) and
     * waits until it serves and every replica is in sync.
     */
    public static RedisClusterProcesses start(int replicas) {
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3 * (1 + replicas); i++) {
                nodes.add(RedisProcess.start(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--cluster-node-timeout", replicas == 0 ? "5000" : "2000", "--cluster-replica-validity-factor", "0")));
            }
            List<String> cmd = new ArrayList<>(List.of(RedisProcess.binary("redis-cli"), "--cluster", "create"));
            nodes.forEach(n -> cmd.add("127.0.0.1:" + n.port()));
            cmd.addAll(List.of("--cluster-replicas", Integer.toString(replicas), "--cluster-yes"));
            Process create = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(create.getInputStream().readAllBytes());
            if (!create.waitFor(60, TimeUnit.SECONDS) || create.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + out);
            }
            RedisClusterProcesses cluster = new RedisClusterProcesses(nodes);
            cluster.awaitOk();
            return cluster;
        } catch (IOException | RuntimeException | InterruptedException e) {
            nodes.forEach(RedisProcess::close);
            throw new IllegalStateException("cannot start a 3-master cluster: " + e.getMessage(), e);
        }
    }

    /**
     * Waits until every running node reports the cluster ok with all slots served by live masters, and
     * every running replica is in sync with its master (after a failover: the promoted replica serves).
     */
    public void awaitOk() {
        for (RedisProcess n : nodes) {
            if (n.alive()) {
                RedisProcess.waitFor(() -> clusterOk(n.port(), nodes.size()), "cluster node " + n.port() + " to report cluster_state:ok");
            }
        }
        for (RedisProcess n : nodes) {
            if (n.alive() && n.info("replication").contains("role:slave")) {
                n.awaitReplicaInSync();
            }
        }
    }

    private static boolean clusterOk(int port, int known) {
        try {
            String info = Resp.call(port, "CLUSTER", "INFO");
            // cluster_slots_ok counts the slots whose master is neither failing nor suspected (PFAIL)
            return info != null && info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384")
                    && info.contains("cluster_known_nodes:" + known);
        } catch (IOException e) {
            return false;
        }
    }

    /** The running nodes that are masters now. */
    public List<RedisProcess> masters() {
        return nodes.stream().filter(n -> n.alive() && n.info("replication").contains("role:master")).toList();
    }

    /** {@code redis-cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3}. */
    public String url() {
        return "redis-cluster://" + String.join(",", nodes.stream().map(n -> "127.0.0.1:" + n.port()).toList());
    }

    /** The cluster's nodes. */
    public List<RedisProcess> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        nodes.forEach(RedisProcess::close);
    }
}
