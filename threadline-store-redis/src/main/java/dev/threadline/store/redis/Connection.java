package dev.threadline.store.redis;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One multiplexed Lettuce connection to a standalone server or a cluster, seen through the commands
 * both have. Lettuce connections are thread-safe: every thread of the store shares this one. While a
 * standalone server is unreachable commands are refused at once (not queued), so calls fail fast; on
 * a cluster they fail after the command timeout. Either way the connection recovers by itself when
 * the server is back. Values go through {@link ValueCodec}: UTF-8 text as Lettuce's string codec writes it, and
 * the raw bytes of sealed payloads. Thread-safe.
 */
final class Connection implements AutoCloseable {
    private static final Object SHARED_LOCK = new Object();
    private static ClientResources shared;
    private static int users;

    private final String url;
    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    final RedisClusterCommands<String, String> sync;
    final RedisClusterAsyncCommands<String, String> async;
    final boolean cluster;
    final Acks acks;
    private volatile long lastRefresh;

    private Connection(String url, AbstractRedisClient client, StatefulConnection<String, String> connection,
                       RedisClusterCommands<String, String> sync, RedisClusterAsyncCommands<String, String> async, boolean cluster,
                       Acks acks) {
        this.acks = acks;
        this.url = redacted(url);
        this.client = client;
        this.connection = connection;
        this.sync = sync;
        this.async = async;
        this.cluster = cluster;
    }

    /** Connects to {@code redis://...} / {@code rediss://...} (one server) or {@code redis-cluster://h:p,h:p} (a cluster). */
    static Connection open(String fullUrl, Duration connectTimeout, Duration commandTimeout) {
        if (fullUrl == null || fullUrl.isBlank()) {
            throw new InvalidInputException("redisUrl", "is missing; use redis://host:port or redis-cluster://host:port,host:port");
        }
        Acks.Parsed parsed = Acks.parse(fullUrl);
        String url = parsed.url();
        Acks acks = parsed.acks();
        if (acks.on() && acks.timeout().compareTo(commandTimeout) >= 0) {
            throw new InvalidInputException("replicaTimeout", acks.timeout() + " must be shorter than the command timeout " + commandTimeout);
        }
        boolean cluster = url.startsWith("redis-cluster://");
        List<RedisURI> uris = parse(url, cluster);
        ClientResources resources = acquireResources();
        AbstractRedisClient client = null;
        try {
            SocketOptions socket = SocketOptions.builder().connectTimeout(connectTimeout).build();
            TimeoutOptions timeouts = TimeoutOptions.enabled(commandTimeout);
            if (cluster) {
                RedisClusterClient c = RedisClusterClient.create(resources, uris);
                client = c;
                // connections to the nodes open on demand, so commands cannot be refused while one is opening:
                // on a cluster an unreachable node fails a command after the command timeout instead
                c.setOptions(ClusterClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts).build());
                StatefulRedisClusterConnection<String, String> conn = c.connect(ValueCodec.INSTANCE);
                return new Connection(url, c, conn, conn.sync(), conn.async(), true, acks);
            }
            RedisClient c = RedisClient.create(resources, uris.get(0));
            client = c;
            c.setOptions(ClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
            StatefulRedisConnection<String, String> conn = c.connect(ValueCodec.INSTANCE);
            return new Connection(url, c, conn, conn.sync(), conn.async(), false, acks);
        } catch (RuntimeException e) {
            if (client != null) {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
            releaseResources();
            throw new StorageException("redis store " + redacted(url) + ": cannot connect (" + Failures.cause(e) + ")", e);
        }
    }

    private static List<RedisURI> parse(String url, boolean cluster) {
        try {
            if (!cluster) {
                if (!url.startsWith("redis://") && !url.startsWith("rediss://")) {
                    throw new IllegalArgumentException("the scheme must be redis://, rediss:// or redis-cluster://");
                }
                return List.of(checked(RedisURI.create(url), url, false));
            }
            List<RedisURI> out = new ArrayList<>();
            for (String hostPort : url.substring("redis-cluster://".length()).split(",")) {
                if (hostPort.isBlank()) {
                    throw new IllegalArgumentException("an empty host:port in the list");
                }
                String one = "redis://" + hostPort.strip();
                out.add(checked(RedisURI.create(one), one, true));
            }
            return out;
        } catch (RuntimeException e) {
            throw new InvalidInputException("redisUrl", "'" + redacted(url) + "' is not a Redis URL (" + Failures.cause(e)
                    + "); use redis://host:port[/db] or redis-cluster://host:port,host:port");
        }
    }

    /** Lettuce's parser is lenient (it takes "host:junk" for a host name): java.net.URI must find a host and port too. */
    private static RedisURI checked(RedisURI uri, String text, boolean needPort) {
        java.net.URI strict;
        try {
            strict = new java.net.URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(e.getReason());
        }
        if (strict.getHost() == null || uri.getHost() == null || uri.getHost().isBlank()) {
            throw new IllegalArgumentException("no valid host:port");
        }
        if (needPort && strict.getPort() < 0) {
            throw new IllegalArgumentException("'" + strict.getRawAuthority() + "' has no port");
        }
        return uri;
    }

    /** The URL without its password, fit for messages and logs. */
    static String redacted(String url) {
        return url.replaceFirst("//[^/@]*@", "//***@");
    }

    String url() {
        return url;
    }

    /**
     * Runs a write and, with replicated acknowledgements on and {@code written} true of its result, WAITs
     * for the replicas on the very connection that wrote it (WAIT counts that connection's own writes): on a
     * standalone server the shared one; on a cluster the pooled connection to the master of {@code slotKey}'s
     * slot, which Lettuce also routes that slot's commands through. The write is sent there directly, so
     * a MOVED, ASK or READONLY reply (nothing written) refreshes the topology and the write is sent again.
     */
    <T> T acked(String slotKey, Function<RedisClusterCommands<String, String>, T> write, Predicate<T> written) {
        if (!acks.on()) {
            return write.apply(sync);
        }
        if (!cluster) {
            T r = write.apply(sync);
            if (written.test(r)) {
                acks.confirm(sync);
            }
            return r;
        }
        var c = (StatefulRedisClusterConnection<String, String>) connection;
        for (int attempt = 0; ; attempt++) {
            RedisClusterNode master = c.getPartitions().getMasterBySlot(SlotHash.getSlot(slotKey));
            if (master == null) {
                refresh();
                throw new StorageException("redis store " + url + " unavailable: no master serves the slot of " + slotKey);
            }
            RedisClusterCommands<String, String> node;
            T r;
            try {
                node = c.getConnection(master.getUri().getHost(), master.getUri().getPort(), ConnectionIntent.WRITE).sync();
                r = write.apply(node);
            } catch (RedisCommandExecutionException e) {
                String m = String.valueOf(e.getMessage());
                if ((m.startsWith("MOVED") || m.startsWith("ASK") || m.startsWith("READONLY")) && attempt < 3) {
                    ((RedisClusterClient) client).refreshPartitions();
                    continue; // not written: a redirect, or a master turned replica, answers before the script runs
                }
                refresh();
                throw e;
            } catch (RuntimeException e) {
                refresh(); // the master may have failed over: learn the new one for the next call
                throw e;
            }
            if (written.test(r)) {
                acks.confirm(node);
            }
            return r;
        }
    }

    /** The commands of each master of the cluster as its topology is known now; only when {@link #cluster}. */
    List<RedisClusterCommands<String, String>> masters() {
        var c = (StatefulRedisClusterConnection<String, String>) connection;
        List<RedisClusterCommands<String, String>> out = new ArrayList<>();
        for (RedisClusterNode node : c.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
                out.add(c.getConnection(node.getNodeId(), ConnectionIntent.WRITE).sync());
            }
        }
        return out;
    }

    /** Asks Lettuce for the cluster's topology again, at most every 500 ms, without waiting for it. */
    private void refresh() {
        long now = System.nanoTime();
        if (now - lastRefresh > 500_000_000L) {
            lastRefresh = now;
            ((RedisClusterClient) client).refreshPartitionsAsync();
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        } finally {
            releaseResources();
        }
    }

    /** One set of event loops for every store of this JVM, shut down when the last store closes. */
    private static ClientResources acquireResources() {
        synchronized (SHARED_LOCK) {
            if (shared == null) {
                shared = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
            }
            users++;
            return shared;
        }
    }

    private static void releaseResources() {
        synchronized (SHARED_LOCK) {
            if (--users == 0) {
                shared.shutdown(0, 2, java.util.concurrent.TimeUnit.SECONDS);
                shared = null;
            }
        }
    }
}
