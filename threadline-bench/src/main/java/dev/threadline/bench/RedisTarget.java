package dev.threadline.bench;

import com.fasterxml.jackson.databind.JavaType;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.redis.RedisStateStore;
import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.RedisProcess;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Redis or a Redis Cluster under benchmark: servers of the benchmark's own (the TCK's
 * {@link RedisProcess} / {@link RedisClusterProcesses}: AOF on, {@code appendfsync always}; automatic
 * AOF rewrites turned off so that the file only grows) or one given by URL, left as it is configured.
 * Threadline's keys carry a prefix of their own, the raw floor's another; both are deleted at the end.
 */
final class RedisTarget implements SharedTarget {
    private final AutoCloseable servers;
    private final String url;
    private final boolean cluster;
    private final String prefix;
    private final String rawPrefix;
    private final AbstractRedisClient client;
    private final StatefulRedisConnection<String, String> single;
    private final StatefulRedisClusterConnection<String, String> clustered;

    private RedisTarget(AutoCloseable servers, String url) {
        this.servers = servers;
        this.url = url;
        this.cluster = url.startsWith("redis-cluster://");
        String tag = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
        this.prefix = "tlbench" + tag;
        this.rawPrefix = "tlbenchraw" + tag;
        if (cluster) {
            List<RedisURI> uris = new ArrayList<>();
            for (String hp : url.substring("redis-cluster://".length()).split(",")) {
                uris.add(RedisURI.create("redis://" + hp.strip()));
            }
            RedisClusterClient c = RedisClusterClient.create(uris);
            this.client = c;
            this.clustered = c.connect();
            this.single = null;
        } else {
            RedisClient c = RedisClient.create(url);
            this.client = c;
            this.single = c.connect();
            this.clustered = null;
        }
        if (servers != null) { // our own servers: the AOF must only grow while we measure it
            for (RedisClusterCommands<String, String> node : masters()) {
                node.configSet("auto-aof-rewrite-percentage", "0");
            }
        }
    }

    /** Starts a server of the benchmark's own (AOF, appendfsync always). */
    static RedisTarget start() {
        RedisProcess p = RedisProcess.start(List.of());
        try {
            return new RedisTarget(p, p.url());
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /** Starts a 3-master cluster of the benchmark's own (AOF, appendfsync always on every node). */
    static RedisTarget startCluster() {
        RedisClusterProcesses p = RedisClusterProcesses.start();
        try {
            return new RedisTarget(p, p.url());
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /** Uses the server or cluster at {@code url} as it is. */
    static RedisTarget at(String url) {
        return new RedisTarget(null, url);
    }

    private RedisClusterCommands<String, String> commands() {
        return cluster ? clustered.sync() : single.sync();
    }

    /** Every master's commands (the one server when standalone). */
    private List<RedisClusterCommands<String, String>> masters() {
        if (!cluster) {
            return List.of(single.sync());
        }
        List<RedisClusterCommands<String, String>> out = new ArrayList<>();
        for (RedisClusterNode n : clustered.getPartitions()) {
            if (n.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                out.add(clustered.getConnection(n.getNodeId()).sync());
            }
        }
        return out;
    }

    @Override
    public String kind() {
        return cluster ? "redis-cluster" : "redis";
    }

    @Override
    public synchronized String describe() {
        List<RedisClusterCommands<String, String>> nodes = masters();
        RedisClusterCommands<String, String> first = nodes.get(0);
        String version = field(first.info("server"), "redis_version");
        return "Redis " + version + (cluster ? ", a cluster of " + nodes.size() + " masters" : "")
                + ", appendonly=" + first.configGet("appendonly").get("appendonly")
                + ", appendfsync=" + first.configGet("appendfsync").get("appendfsync")
                + ", auto-aof-rewrite-percentage=" + first.configGet("auto-aof-rewrite-percentage").get("auto-aof-rewrite-percentage")
                + (servers == null ? " (given by URL)" : " (the benchmark's own, on loopback)");
    }

    @Override
    public StateStore openStore() {
        return RedisStateStore.open(url, RedisStateStore.Options.defaults().withPrefix(prefix));
    }

    @Override
    public StateStore openSealedStore(dev.threadline.core.crypto.KeyProvider keys) {
        return RedisStateStore.open(url, RedisStateStore.Options.defaults().withPrefix(prefix).withKeys(keys));
    }

    @Override
    public String storeConnections() {
        return "RedisStateStore defaults: one multiplexed Lettuce connection" + (cluster ? " (cluster client)" : "")
                + "; key prefix " + prefix;
    }

    @Override
    public RawFloor openRawFloor() {
        RedisClusterCommands<String, String> raw;
        AutoCloseable conn;
        if (cluster) {
            StatefulRedisClusterConnection<String, String> c = ((RedisClusterClient) client).connect();
            raw = c.sync();
            conn = c;
        } else {
            StatefulRedisConnection<String, String> c = ((RedisClient) client).connect();
            raw = c.sync();
            conn = c;
        }
        return new RawFloor() {
            private String key(String session) {
                return rawPrefix + ":{" + session + "}:ev";
            }

            @Override
            public void write(String session, long seq, String payload) {
                raw.rpush(key(session), payload); // acknowledged after the AOF fsync (appendfsync always)
            }

            @Override
            public Long heldBytes(String session) {
                Long m = memoryUsage(raw, key(session));
                return m == null ? 0 : m; // no key yet
            }

            @Override
            public void putDocument(String key, String json) {
                raw.set(rawPrefix + ":doc:{" + key + "}", json);
            }

            @Override
            public void close() throws Exception {
                conn.close();
            }
        };
    }

    @Override
    public String writtenBytesMethod() {
        return "AOF: aof_current_size of INFO persistence before and after, summed over the masters (the whole server's AOF)";
    }

    @Override
    public synchronized Long writtenBytes() {
        long sum = 0;
        for (RedisClusterCommands<String, String> node : masters()) {
            String info = node.info("persistence");
            String enabled = field(info, "aof_enabled");
            String size = field(info, "aof_current_size");
            if (!"1".equals(enabled) || size == null || "1".equals(field(info, "aof_rewrite_in_progress"))) {
                return null;
            }
            sum += Long.parseLong(size);
        }
        return sum;
    }

    @Override
    public String heldBytesMethod() {
        return "MEMORY USAGE ... SAMPLES 0 of the session's keys (meta, ev, cmd, snapi, snap, kids), before and after";
    }

    /** The session's keys, as the Redis store lays them out (see its Keys: one hash tag per session). */
    @Override
    public synchronized Long heldBytes(String tenant, String session) {
        String base = prefix + ":{" + tenant + "/" + session + "}:";
        long sum = 0;
        for (String k : List.of("meta", "ev", "cmd", "snapi", "snap", "kids")) {
            Long m = memoryUsage(commands(), base + k);
            sum += m == null ? 0 : m;
        }
        return sum;
    }

    private static Long memoryUsage(RedisClusterCommands<String, String> c, String key) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0);
        return c.dispatch(CommandType.MEMORY, new IntegerOutput<>(StringCodec.UTF8), args);
    }

    @Override
    public int readDocument(String key) throws Exception {
        JavaType type = Json.mapper().getTypeFactory().constructCollectionType(List.class, Event.class);
        String json;
        if (cluster) {
            try (StatefulRedisClusterConnection<String, String> c = ((RedisClusterClient) client).connect()) {
                json = c.sync().get(rawPrefix + ":doc:{" + key + "}");
            }
        } else {
            try (StatefulRedisConnection<String, String> c = ((RedisClient) client).connect()) {
                json = c.sync().get(rawPrefix + ":doc:{" + key + "}");
            }
        }
        List<Event> events = Json.mapper().readValue(json, type);
        return events.size();
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        return null;
    }

    @Override
    public void close() throws Exception {
        try {
            if (servers == null) { // someone else's server: delete what we wrote
                for (RedisClusterCommands<String, String> node : masters()) {
                    for (String p : List.of(prefix, rawPrefix)) {
                        ScanCursor cursor = ScanCursor.INITIAL;
                        do {
                            KeyScanCursor<String> page = node.scan(cursor, ScanArgs.Builder.matches(p + ":*").limit(500));
                            for (String k : page.getKeys()) {
                                commands().del(k);
                            }
                            cursor = page;
                        } while (!cursor.isFinished());
                    }
                }
            }
        } finally {
            if (clustered != null) {
                clustered.close();
            }
            if (single != null) {
                single.close();
            }
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            if (servers != null) {
                servers.close();
            }
        }
    }

    @Override
    public String toString() {
        return kind() + " (" + url.replaceAll("(//[^/:@]*:)[^@/]*@", "$1***@") + ")";
    }
}
