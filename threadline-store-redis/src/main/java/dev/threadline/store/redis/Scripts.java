package dev.threadline.store.redis;

import dev.threadline.core.error.StorageException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The store's Lua scripts, each run by EVALSHA and, when the server does not have it cached yet
 * (a fresh node, a restart, SCRIPT FLUSH), by EVAL, which caches it there. Each script is the shared
 * prologue followed by its own body. Immutable and thread-safe.
 */
enum Scripts {
    CREATE, ADOPT, SETTLE, APPEND, UNWIP, DESCRIBE, READ, ACQUIRE, RENEW, RELEASE, COMMAND, KIDS,
    SNAPSAVE, SNAPLATEST, DELETE, DISOWN, VARS, UNINDEX, INTERRUPT, TAKEINTERRUPT, PRUNE, HBASE, RESEALREAD, RESEAL;

    private final String source;
    private final String sha;

    Scripts() {
        this.source = resource("prologue.lua") + "\n" + resource(name().toLowerCase(java.util.Locale.ROOT) + ".lua");
        this.sha = sha1(source);
    }

    /** Runs the script on the node that holds the keys' slot; its reply is a list (see each script). */
    List<Object> run(RedisClusterCommands<String, String> redis, String[] keys, String... args) {
        try {
            return redis.evalsha(sha, ScriptOutputType.MULTI, keys, args);
        } catch (RedisNoScriptException e) {
            return redis.eval(source, ScriptOutputType.MULTI, keys, args);
        }
    }

    private static String resource(String name) {
        try (InputStream in = Scripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new StorageException("redis store: script " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StorageException("redis store: cannot read script " + name + ": " + e.getMessage(), e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
    }
}
