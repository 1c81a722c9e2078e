package dev.threadline.store.redis;

import java.util.Map;

/**
 * The one-line durability statement of a store, from the server's own AOF settings (CONFIG GET; a
 * server that refuses CONFIG gets the general statement) and the store's replicated acknowledgement
 * mode ({@link Acks}). Stateless.
 */
final class Durability {
    private Durability() {}

    static String describe(Connection redis) {
        return server(redis) + "; steps " + redis.acks.describe();
    }

    private static String server(Connection redis) {
        String where = "redis " + (redis.cluster ? "cluster" : "standalone") + " " + redis.url();
        try {
            Map<String, String> c = redis.sync.configGet("appendonly", "appendfsync", "maxmemory-policy");
            String policy = c.getOrDefault("maxmemory-policy", "noeviction");
            String eviction = policy.equals("noeviction") ? ""
                    : "; WARNING: maxmemory-policy " + policy + " lets Redis evict sessions, set noeviction";
            if (!"yes".equals(c.get("appendonly"))) {
                return where + ", AOF off: a server crash loses every append since the last RDB snapshot" + eviction;
            }
            String fsync = c.getOrDefault("appendfsync", "?");
            return where + ", AOF appendfsync " + fsync + switch (fsync) {
                case "always" -> ": an acknowledged append survives a server crash and a power loss";
                case "everysec" -> ": a power loss may lose about the last second of acknowledged appends"
                        + " (a server crash too, while a slow disk holds AOF writes back)";
                default -> ": a power loss may lose many seconds of acknowledged appends";
            } + eviction;
        } catch (RuntimeException e) {
            return where + ": durability follows the server's AOF settings (appendonly yes, appendfsync always recommended)";
        }
    }
}
