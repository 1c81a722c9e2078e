package dev.threadline.langchain4j;

import dev.threadline.core.Require;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds the session of a memory id in one tenant: the id's text when it is a valid session id, else
 * {@code lc4j-} and the first 32 hex digits of its SHA-256 (stable across processes). New sessions get
 * {@code config}. Immutable and thread-safe.
 */
record MemorySessions(Tenant tenant, SessionConfig config) {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");

    MemorySessions {
        Require.nonNull(tenant, "tenant");
        Require.nonNull(config, "config");
    }

    /** The session id a memory id maps to. */
    static String sessionId(Object memoryId) {
        Require.nonNull(memoryId, "memoryId");
        String text = memoryId.toString();
        if (VALID.matcher(text).matches()) {
            return text;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "lc4j-" + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    Optional<Session> find(Object memoryId) {
        return tenant.find(sessionId(memoryId));
    }

    Session openOrCreate(Object memoryId) {
        return tenant.openOrCreate(sessionId(memoryId), config);
    }
}
