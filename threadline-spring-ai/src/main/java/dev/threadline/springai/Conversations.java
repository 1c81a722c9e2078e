package dev.threadline.springai;

import dev.threadline.chatmemory.SessionIds;
import dev.threadline.chatmemory.ViewCache;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sessions of conversations in one tenant: the conversation id when it is a valid session id, else
 * {@code spring-ai-} and 32 hex digits of its SHA-256; each is created with metadata naming the adapter
 * and the conversation id, so listing finds only conversations and returns their ids as given. Keeps each
 * session's last view ({@link ViewCache}), so a view is built from the previous one in time proportional to what
 * changed. Thread-safe.
 */
final class Conversations {
    static final String ADAPTER_KEY = "adapter";
    static final String ADAPTER = "spring-ai";
    static final String CONVERSATION_KEY = "conversation";
    /** How many conversations' last views one repository keeps. */
    static final int CACHED_VIEWS = 256;

    private final Tenant tenant;
    private final SessionConfig config;
    private final ViewCache<View> views = new ViewCache<>(CACHED_VIEWS);

    Conversations(Tenant tenant, SessionConfig config) {
        this.tenant = Require.nonNull(tenant, "tenant");
        this.config = Require.nonNull(config, "config");
    }

    Tenant tenant() {
        return tenant;
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

    static String sessionId(String conversationId) {
        return SessionIds.of(conversationId, "spring-ai-");
    }

    Optional<Session> find(String conversationId) {
        return tenant.find(sessionId(conversationId));
    }

    Session openOrCreate(String conversationId) {
        String id = sessionId(conversationId);
        Optional<Session> found = tenant.find(id);
        if (found.isPresent()) {
            return found.get();
        }
        try {
            return tenant.create(new NewSession(id, null, config, Map.of(ADAPTER_KEY, ADAPTER, CONVERSATION_KEY, conversationId), null));
        } catch (SessionExistsException raced) {
            return tenant.open(id);
        }
    }

    /** Every conversation id of the tenant, most recently updated first. */
    List<String> ids() {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            Page<SessionSummary> page = tenant.sessions(new SessionFilter(null, Map.of(ADAPTER_KEY, ADAPTER), 100, cursor));
            page.items().forEach(s -> out.add(s.info().metadata().get(CONVERSATION_KEY)));
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }
}
