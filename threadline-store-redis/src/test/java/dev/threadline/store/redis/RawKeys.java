package dev.threadline.store.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads every key under a prefix of a standalone server, with its whole content, so a test can tell
 * that a refused call changed nothing at all. Not thread-safe; close it after use.
 */
final class RawKeys implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;

    RawKeys(String url) {
        client = RedisClient.create(url);
        connection = client.connect();
        redis = connection.sync();
    }

    RedisCommands<String, String> redis() {
        return redis;
    }

    /** key -> "type: content" for every key that starts with {@code prefix + ":"}, sorted. */
    Map<String, String> under(String prefix) {
        Map<String, String> out = new TreeMap<>();
        for (String k : redis.keys(prefix + ":*")) {
            String type = redis.type(k);
            Object content = switch (type) {
                case "hash" -> new TreeMap<>(redis.hgetall(k));
                case "list" -> redis.lrange(k, 0, -1);
                case "zset" -> redis.zrangeWithScores(k, 0, -1);
                case "string" -> redis.get(k);
                default -> type;
            };
            out.put(k, type + ": " + content);
        }
        return out;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
