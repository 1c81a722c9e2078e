package dev.threadline.langchain4j;

import dev.threadline.chatmemory.SessionIds;
import dev.threadline.chatmemory.ViewCache;
import dev.threadline.core.error.Require;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import java.util.Optional;

/**
 * Finds the session of a memory id in one tenant: the id's text when it is a valid session id, else
 * {@code lc4j-} and the first 32 hex digits of its SHA-256 (stable across processes). New sessions get
 * {@code config}. Keeps each session's last view ({@link ViewCache}), so a view is built from the previous one
 * in time proportional to what changed. Thread-safe.
 */
final class MemorySessions {
    /** How many sessions' last views one store or memory keeps. */
    static final int CACHED_VIEWS = 256;

    private final Tenant tenant;
    private final SessionConfig config;
    private final ViewCache<View> views = new ViewCache<>(CACHED_VIEWS);

    MemorySessions(Tenant tenant, SessionConfig config) {
        this.tenant = Require.nonNull(tenant, "tenant");
        this.config = Require.nonNull(config, "config");
    }

    Tenant tenant() {
        return tenant;
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

    /** The view of {@code state} of session {@code session}, built from the session's last view and kept as it. */
    View view(String session, State state) {
        View v = View.of(state, views.get(session));
        views.put(session, v);
        return v;
    }

    /** The session's last view, or null. */
    View lastView(String session) {
        return views.get(session);
    }

    /** Forgets the session's view. */
    void forget(String session) {
        views.remove(session);
    }
}
