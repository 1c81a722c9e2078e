package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.Resp;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The encryption tests' view of a server's raw bytes: its values as byte arrays (no codec between them and the
 * test), its data files after a BGSAVE and a BGREWRITEAOF have completed, and a canary's bytes in them. Not
 * thread-safe; close it after use.
 */
final class SealedBytes implements AutoCloseable {
    private final RedisProcess server;
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;

    SealedBytes(RedisProcess server) {
        this.server = server;
        client = RedisClient.create(server.url());
        connection = client.connect(ByteArrayCodec.INSTANCE);
    }

    /** The server's commands on raw bytes. */
    RedisCommands<byte[], byte[]> redis() {
        return connection.sync();
    }

    static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Every value under {@code prefix}: list entries, hash values and strings (not sorted-set members, which are ids). */
    List<byte[]> values(String prefix) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] k : redis().keys(prefix + ":*")) {
            switch (redis().type(k)) {
                case "list" -> out.addAll(redis().lrange(k, 0, -1));
                case "hash" -> out.addAll(redis().hgetall(k).values());
                case "string" -> out.add(redis().get(k));
                default -> { }
            }
        }
        return out;
    }

    /** Writes the RDB snapshot (BGSAVE), waited for through {@code INFO persistence} until it finished and succeeded. */
    void save() throws IOException {
        Resp.call(server.port(), "BGSAVE"); // nothing writes meanwhile: done when no change is left unsaved
        RedisProcess.waitFor(() -> field("rdb_bgsave_in_progress").equals("0") && field("rdb_changes_since_last_save").equals("0"),
                "BGSAVE to finish");
        if (!field("rdb_last_bgsave_status").equals("ok")) {
            throw new IllegalStateException("BGSAVE failed: " + server.log());
        }
    }

    /**
     * Rewrites the append-only file (BGREWRITEAOF: its history, values since replaced or deleted included, gives way
     * to the keys as they are), waited for through {@code INFO persistence} until it finished and succeeded.
     */
    void rewriteAof() throws IOException {
        Resp.call(server.port(), "BGREWRITEAOF");
        RedisProcess.waitFor(() -> field("aof_rewrite_in_progress").equals("0") && field("aof_rewrite_scheduled").equals("0"),
                "BGREWRITEAOF to finish");
        if (!field("aof_last_bgrewrite_status").equals("ok")) {
            throw new IllegalStateException("BGREWRITEAOF failed: " + server.log());
        }
    }

    private String field(String name) {
        for (String line : server.info("persistence").split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        return "";
    }

    /** The names of the server's data files (RDB, AOF parts; not its log) that hold {@code canary}'s UTF-8 bytes. */
    List<String> filesWith(String canary) throws IOException {
        String needle = new String(canary.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1); // one char per byte
        List<String> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(server.dir())) {
            files = s.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("server.log")).toList();
        }
        for (Path f : files) {
            if (new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(needle)) {
                out.add(server.dir().relativize(f).toString());
            }
        }
        return out;
    }

    /** Names of all the server's data files, for a failing assertion's message. */
    List<String> files() throws IOException {
        try (Stream<Path> s = Files.walk(server.dir())) {
            return s.filter(Files::isRegularFile).map(f -> server.dir().relativize(f).toString()).sorted().toList();
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
