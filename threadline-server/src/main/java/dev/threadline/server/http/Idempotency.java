package dev.threadline.server.http;

import dev.threadline.core.runtime.CommandOptions;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The {@code Idempotency-Key} of a compatible surface's POST, as on {@code /v1}: the key becomes the
 * core's command id, so a retry returns the first outcome and appends nothing, and the same key with
 * another body is a 422. A create without an id derives the id from the key, so that a retry names
 * the same session. Stateless.
 */
public final class Idempotency {
    /** The header's name. */
    public static final String HEADER = "Idempotency-Key";

    private Idempotency() {}

    /**
     * The command options of the request: its key as the command id, or none.
     *
     * @throws ApiException 400 when the key is not 1-255 printable characters
     */
    public static CommandOptions options(Context ctx) {
        String key = ctx.header(HEADER);
        if (key == null) {
            return CommandOptions.NONE;
        }
        if (key.isEmpty() || key.length() > 255 || key.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ApiException.invalid(HEADER, "must be 1-255 printable characters");
        }
        return CommandOptions.builder().commandId(key).build();
    }

    /** 32 hex digits derived from {@code key} (and the kind of thing created), stable across retries. */
    public static String hex(String kind, String key) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((kind + "\n" + key).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** A UUID derived from {@code key}, stable across retries. */
    public static String uuid(String kind, String key) {
        return UUID.nameUUIDFromBytes((kind + "\n" + key).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
