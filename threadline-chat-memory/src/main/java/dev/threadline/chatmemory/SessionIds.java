package dev.threadline.chatmemory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/** The session that holds a framework's memory or conversation, by the framework's key. Stateless and thread-safe. */
public final class SessionIds {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");

    private SessionIds() {}

    /**
     * The session id for {@code key}: the key itself when it is a valid session id, else {@code prefix} and the
     * first 32 hex digits of the key's SHA-256 (stable across processes).
     *
     * @throws NullPointerException when the key or the prefix is null
     */
    public static String of(String key, String prefix) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(prefix, "prefix");
        if (VALID.matcher(key).matches()) {
            return key;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return prefix + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
