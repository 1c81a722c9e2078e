package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.internal.engine.live.Listeners;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.util.Map;
import java.util.Optional;

/** The {@link Tenant} implementation: every operation is scoped to one tenant's keys. Thread-safe. */
public final class TenantView implements Tenant {
    private final Sessions sessions;
    private final SessionCommands commands;
    private final SessionReads reads;
    private final Listeners listeners;
    private final String tenant;
    private final CommandOptions options;

    /**
     * The view of {@code tenant} over the runtime's sessions, commands, reads and listeners.
     *
     * @throws dev.threadline.core.error.InvalidInputException when the tenant id is invalid
     */
    public TenantView(Sessions sessions, SessionCommands commands, SessionReads reads, Listeners listeners, String tenant) {
        this(sessions, commands, reads, listeners, SessionInfo.checkId(tenant, "tenant"), CommandOptions.NONE);
    }

    private TenantView(Sessions sessions, SessionCommands commands, SessionReads reads, Listeners listeners, String tenant,
                       CommandOptions options) {
        this.sessions = sessions;
        this.commands = commands;
        this.reads = reads;
        this.listeners = listeners;
        this.tenant = tenant;
        this.options = options;
    }

    private Session handle(SessionKey key) {
        return new SessionHandle(commands, reads, key, CommandOptions.NONE);
    }

    @Override
    public String id() {
        return tenant;
    }

    @Override
    public Tenant with(CommandOptions options) {
        return new TenantView(sessions, commands, reads, listeners, tenant, Require.nonNull(options, "options"));
    }

    @Override
    public Session create(NewSession session) {
        return handle(sessions.create(tenant, session, options));
    }

    @Override
    public Session open(String id) {
        return find(id).orElseThrow(() -> new SessionNotFoundException(id));
    }

    @Override
    public Optional<Session> find(String id) {
        SessionKey key = new SessionKey(tenant, id);
        return sessions.exists(key) ? Optional.of(handle(key)) : Optional.empty();
    }

    @Override
    public Session openOrCreate(String id, SessionConfig config) {
        Optional<Session> existing = find(id);
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            return create(id, config);
        } catch (SessionExistsException raced) {
            return open(id); // another caller created it between the two steps: open theirs
        }
    }

    @Override
    public Page<SessionSummary> sessions(SessionFilter filter) {
        Require.nonNull(filter, "filter");
        return sessions.list(new SessionQuery(tenant, filter.userId(), filter.metadata(), filter.limit(), filter.cursor()));
    }

    @Override
    public void delete(String id) {
        sessions.delete(new SessionKey(tenant, id));
    }

    @Override
    public Map<String, JsonNode> appVariables() {
        return reads.appVariables(tenant);
    }

    @Override
    public Map<String, JsonNode> userVariables(String userId) {
        return reads.userVariables(tenant, SessionInfo.checkId(userId, "user"));
    }

    @Override
    public void addListener(EventListener listener) {
        listeners.add(tenant, listener);
    }

    @Override
    public void removeListener(EventListener listener) {
        listeners.remove(tenant, listener);
    }

    @Override
    public String toString() {
        return "Tenant[" + tenant + "]";
    }
}
