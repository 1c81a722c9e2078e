package dev.threadline.core.internal.engine;

import dev.threadline.core.error.Require;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.engine.live.LeaseKeeper;
import dev.threadline.core.internal.engine.loop.AgentLoop;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.SessionIndex;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Sessions coming and going: create (checked before anything is written, idempotent by a caller's
 * command id), list, delete. Thread-safe (stateless over its parts).
 */
public final class Sessions {
    private final StateManager states;
    private final AgentLoop loop;
    private final CommandGate gate;
    private final SessionIndex index;
    private final LeaseKeeper leases;
    private final Clock clock;
    private final String defaultUser;
    private final java.util.function.Function<String, java.time.Duration> defaultTtl;

    /**
     * New sessions belong to {@code defaultUser} unless they name their own, and live for their tenant's
     * {@code defaultTtl} (null: for ever) unless they give their own ttl.
     */
    public Sessions(StateManager states, AgentLoop loop, CommandGate gate, SessionIndex index, LeaseKeeper leases, Clock clock,
                    String defaultUser, java.util.function.Function<String, java.time.Duration> defaultTtl) {
        this.states = states;
        this.loop = loop;
        this.gate = gate;
        this.index = index;
        this.leases = leases;
        this.clock = clock;
        this.defaultUser = defaultUser;
        this.defaultTtl = defaultTtl;
    }

    /**
     * Creates a session of {@code tenant}, checking first that its model and skills exist here. With a
     * caller's command id, a repeat returns the session the first call created.
     */
    SessionKey create(String tenant, NewSession session, CommandOptions options) {
        Require.nonNull(session, "session");
        String id = session.id() != null ? session.id() : "s-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = clock.instant();
        java.time.Duration ttl = session.ttl() != null ? session.ttl() : defaultTtl.apply(tenant);
        Require.argument(ttl == null || ttl.isPositive(), "sessionTtl",
                "the runtime's default for tenant '" + tenant + "' must be positive or null, was " + ttl);
        SessionInfo info = new SessionInfo(SessionInfo.checkId(id, "session id"), tenant,
                session.userId() != null ? session.userId() : defaultUser, session.config(), session.metadata(), now,
                ttl == null || ttl.equals(NewSession.FOREVER) ? null : now.plus(ttl), null, 0);
        SessionKey key = SessionKey.of(info);
        Cmd cmd = Cmd.of(options, "create", Json.write(Map.of("id", id, "user", info.userId(), "config", info.config(),
                "metadata", info.metadata())));
        try {
            states.create(info, CheckpointSource.INPUT, cmd.recordOn(key, 1), List.of(new Event.SessionCreated(info)),
                    s -> loop.context(info.config()).checkView(s, info.config())); // its model and skills exist here
        } catch (SessionExistsException e) {
            if (session.id() != null) {
                Optional<CommandRecord> first = gate.seen(key, cmd);
                if (first.isPresent()) {
                    return key;
                }
            }
            throw e;
        }
        return key;
    }

    /** Whether the session exists. */
    boolean exists(SessionKey key) {
        return index.session(key).isPresent();
    }

    Page<SessionSummary> list(SessionQuery query) {
        return index.list(query);
    }

    /**
     * Deletes a session and its journal.
     *
     * @throws SessionNotFoundException when it does not exist
     */
    void delete(SessionKey key) {
        if (!exists(key)) {
            throw new SessionNotFoundException(key.id());
        }
        index.delete(key);
        states.evict(key);
        leases.forget(key);
    }
}
