package dev.threadline.store.redis;

import dev.threadline.core.error.StorageException;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code StateStore.scrub()} on Redis: a delete frees the keys in memory at once, but the append-only
 * file still holds the commands that wrote them and an RDB snapshot the values. On each server (each
 * master of a cluster) this waits for a rewrite or save already running (it began before the delete),
 * then rewrites the AOF ({@code BGREWRITEAOF}, when {@code appendonly yes}) and writes a new RDB snapshot
 * ({@code BGSAVE}, replacing the old {@code dump.rdb}), each to its end, bounded. Replicas rewrite their
 * own files on their own schedule; what a server refuses (CONFIG or BGSAVE renamed away on a managed
 * service) is named in the answer instead of failing the erasure.
 */
final class RedisScrub {
    private static final Duration WAIT = Duration.ofMinutes(10);

    private RedisScrub() {}

    static String run(Connection redis) {
        List<String> lines = new ArrayList<>();
        if (redis.cluster) {
            RedisAdvancedClusterCommands<String, String> adv = (RedisAdvancedClusterCommands<String, String>) redis.sync;
            for (RedisClusterNode node : adv.getStatefulConnection().getPartitions()) {
                if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                    lines.add(node.getUri().getHost() + ":" + node.getUri().getPort() + " " + scrub(adv.getConnection(node.getNodeId())));
                }
            }
        } else {
            lines.add(scrub(redis.sync));
        }
        return "redis: " + String.join("; ", lines);
    }

    /** One server: rewrite its AOF when it keeps one, then save a new snapshot. */
    private static String scrub(RedisClusterCommands<String, String> node) {
        boolean aof;
        try {
            aof = "yes".equals(node.configGet("appendonly").get("appendonly"));
        } catch (RuntimeException e) {
            return "not scrubbed: the server refused CONFIG GET appendonly (" + e.getMessage()
                    + "); its AOF and RDB files keep the deleted keys until it rewrites them";
        }
        awaitIdle(node);
        String out;
        if (aof) {
            node.bgrewriteaof();
            awaitIdle(node);
            String status = field(node.info("persistence"), "aof_last_bgrewrite_status");
            if (!"ok".equals(status)) {
                throw new StorageException("scrub redis: BGREWRITEAOF ended with status " + status + " (see the server's log)");
            }
            out = "append-only file rewritten";
        } else {
            out = "no append-only file";
        }
        try {
            node.bgsave();
        } catch (RuntimeException e) {
            return out + "; BGSAVE refused (" + e.getMessage() + "): an older dump.rdb keeps the deleted keys";
        }
        awaitIdle(node);
        String status = field(node.info("persistence"), "rdb_last_bgsave_status");
        if (!"ok".equals(status)) {
            throw new StorageException("scrub redis: BGSAVE ended with status " + status + " (see the server's log)");
        }
        return out + ", RDB snapshot rewritten";
    }

    /** Polls INFO persistence, bounded, until no rewrite or save is running or scheduled. */
    private static void awaitIdle(RedisClusterCommands<String, String> node) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            String info = node.info("persistence");
            if ("0".equals(field(info, "aof_rewrite_in_progress")) && !"1".equals(field(info, "aof_rewrite_scheduled"))
                    && "0".equals(field(info, "rdb_bgsave_in_progress"))) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new StorageException("scrub redis: a background rewrite or save was still running after " + WAIT.toMinutes()
                        + " minutes; run the erasure again later to scrub");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a server-side job: nothing to be woken by
        }
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        return null;
    }
}
