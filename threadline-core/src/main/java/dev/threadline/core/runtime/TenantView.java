package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Require;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The {@link Tenant} implementation: every operation is scoped to one tenant's keys. Thread-safe. */
final class TenantView implements Tenant {
    private final Engine engine;
    private final String tenant;

    TenantView(Engine engine, String tenant) {
        this.engine = engine;
        this.tenant = SessionInfo.checkId(tenant, "tenant");
    }

    @Override
    public String id() {
        return tenant;
    }

    @Override
    public Session create(NewSession session) {
        return create(session, CommandOptions.NONE);
    }

    @Override
    public Session create(NewSession session, CommandOptions options) {
        Require.nonNull(session, "session");
        String id = session.id() != null ? session.id() : "s-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = engine.clock().instant();
        SessionInfo info = new SessionInfo(SessionInfo.checkId(id, "session id"), tenant,
                session.userId() != null ? session.userId() : engine.defaultUser(), session.config(), session.metadata(), now,
                session.ttl() == null ? null : now.plus(session.ttl()), null, 0);
        SessionKey key = SessionKey.of(info);
        Cmd cmd = Cmd.of(options, "create", Json.write(Map.of("id", id, "user", info.userId(), "config", info.config(),
                "metadata", info.metadata())));
        try {
            engine.states().create(info, CheckpointSource.INPUT, cmd.recordOn(key, 1),
                    List.of(new Event.SessionCreated(info)),
                    s -> engine.loop().context(info.config()).checkView(s, info.config())); // its model and skills exist here
        } catch (SessionExistsException e) {
            if (cmd.hasCallerId() && session.id() != null) {
                Optional<CommandRecord> first = engine.store().command(key, cmd.id());
                if (first.isPresent()) {
                    CommandGate.checked(key, first.get(), cmd);
                    return new SessionHandle(engine, key);
                }
            }
            throw e;
        }
        return new SessionHandle(engine, key);
    }

    @Override
    public Session open(String id) {
        return find(id).orElseThrow(() -> new SessionNotFoundException(id));
    }

    @Override
    public Optional<Session> find(String id) {
        SessionKey key = new SessionKey(tenant, id);
        return engine.store().session(key).map(i -> new SessionHandle(engine, key));
    }

    @Override
    public Session openOrCreate(String id, dev.threadline.core.model.SessionConfig config) {
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
        return engine.store().list(new SessionQuery(tenant, filter.userId(), filter.metadata(), filter.limit(), filter.cursor()));
    }

    @Override
    public void delete(String id) {
        SessionKey key = new SessionKey(tenant, id);
        open(id);
        engine.store().delete(key);
        engine.states().evict(key);
        engine.leases().forget(key);
    }

    @Override
    public Map<String, JsonNode> appVariables() {
        return engine.store().variables(VariableScope.APP, ScopedWrite.appKey(tenant));
    }

    @Override
    public Map<String, JsonNode> userVariables(String userId) {
        return engine.store().variables(VariableScope.USER, ScopedWrite.userKey(tenant, SessionInfo.checkId(userId, "user")));
    }

    @Override
    public void addListener(EventListener listener) {
        engine.states().addListener(tenant, listener);
    }

    @Override
    public void removeListener(EventListener listener) {
        engine.states().removeListener(tenant, listener);
    }

    @Override
    public String toString() {
        return "Tenant[" + tenant + "]";
    }
}
