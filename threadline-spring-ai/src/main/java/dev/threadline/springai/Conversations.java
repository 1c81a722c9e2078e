package dev.threadline.springai;

import dev.threadline.core.Require;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionSummary;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The sessions of conversations in one tenant: the conversation id when it is a valid session id, else
 * {@code spring-ai-} and 32 hex digits of its SHA-256; each is created with metadata naming the adapter
 * and the conversation id, so listing finds only conversations and returns their ids as given.
 * Immutable and thread-safe.
 */
record Conversations(Tenant tenant, SessionConfig config) {
    static final String ADAPTER_KEY = "adapter";
    static final String ADAPTER = "spring-ai";
    static final String CONVERSATION_KEY = "conversation";
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");

    Conversations {
        Require.nonNull(tenant, "tenant");
        Require.nonNull(config, "config");
    }

    static String sessionId(String conversationId) {
        if (VALID.matcher(conversationId).matches()) {
            return conversationId;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(conversationId.getBytes(StandardCharsets.UTF_8));
            return "spring-ai-" + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
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
