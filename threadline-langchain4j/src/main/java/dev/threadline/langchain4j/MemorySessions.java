package dev.threadline.langchain4j;

import dev.threadline.chatmemory.SessionIds;
import dev.threadline.core.error.Require;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import java.util.Optional;

/**
 * Finds the session of a memory id in one tenant: the id's text when it is a valid session id, else
 * {@code lc4j-} and the first 32 hex digits of its SHA-256 (stable across processes). New sessions get
 * {@code config}. Immutable and thread-safe.
 */
record MemorySessions(Tenant tenant, SessionConfig config) {
    MemorySessions {
        Require.nonNull(tenant, "tenant");
        Require.nonNull(config, "config");
    }

    /** The session id a memory id maps to. */
    static String sessionId(Object memoryId) {
        Require.nonNull(memoryId, "memoryId");
        return SessionIds.of(memoryId.toString(), "lc4j-");
    }

    Optional<Session> find(Object memoryId) {
        return tenant.find(sessionId(memoryId));
    }

    Session openOrCreate(Object memoryId) {
        return tenant.openOrCreate(sessionId(memoryId), config);
    }
}
