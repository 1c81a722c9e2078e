package dev.threadline.harness.servers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway 3-master Redis Cluster on loopback: three {@link RedisProcess}es with cluster mode on,
 * joined by {@code redis-cli --cluster create}, ready once every node reports the cluster ok with all
 * 16384 slots served (a bounded poll). Not thread-safe.
 */
public final class RedisClusterProcesses implements AutoCloseable {
    private final List<RedisProcess> nodes;

    private RedisClusterProcesses(List<RedisProcess> nodes) {
        this.nodes = nodes;
    }

    /** Starts a cluster of 3 Redis masters on free loopback ports and waits until it serves. */
    public static RedisClusterProcesses start() {
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(RedisProcess.start(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--cluster-node-timeout", "5000")));
            }
            List<String> cmd = new ArrayList<>(List.of(RedisProcess.binary("redis-cli"), "--cluster", "create"));
            nodes.forEach(n -> cmd.add("127.0.0.1:" + n.port()));
            cmd.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Process create = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(create.getInputStream().readAllBytes());
            if (!create.waitFor(60, TimeUnit.SECONDS) || create.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + out);
            }
            for (RedisProcess n : nodes) {
                RedisProcess.waitFor(() -> clusterOk(n.port()), "cluster node " + n.port() + " to report cluster_state:ok");
            }
            return new RedisClusterProcesses(nodes);
        } catch (IOException | RuntimeException | InterruptedException e) {
            nodes.forEach(RedisProcess::close);
            throw new IllegalStateException("cannot start a 3-master cluster: " + e.getMessage(), e);
        }
    }

    private static boolean clusterOk(int port) {
        try {
            String info = Resp.call(port, "CLUSTER", "INFO");
            return info != null && info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384")
                    && info.contains("cluster_known_nodes:3");
        } catch (IOException e) {
            return false;
        }
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
