package dev.threadline.core.runtime;

import dev.threadline.core.Require;
import dev.threadline.core.SessionNotFoundException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.store.InMemoryStateStore;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The runtime: wires a store, a model, skills and policies, and hands out {@link Session}s of one
 * tenant. Thread-safe; one instance serves any number of sessions in parallel.
 *
 * {@snippet :
 * try (Threadline tl = Threadline.builder().store(store).skills(Builtins.all(workspace)).build()) {
 *     Session s = tl.openOrCreate("s1", SessionConfig.DEFAULT);
 *     TurnResult r = s.submit("what is (2+3)*4");
 * }
 * }
 */
public final class Threadline implements AutoCloseable {
    private final StateStore store;
    private final StateManager states;
    private final SessionRunner runner;
    private final AgentLoop loop;
    private final ExecutorService skillExecutor;
    private final String tenant;
    private final String userId;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Threadline(Builder b) {
        this.store = b.store;
        this.tenant = b.tenant;
        this.userId = b.userId;
        this.states = new StateManager(b.store, b.clock, b.snapshotEvery, b.cacheCapacity);
        this.runner = new SessionRunner();
        this.skillExecutor = Executors.newVirtualThreadPerTaskExecutor();
        this.loop = new AgentLoop(states, b.model, SkillRegistry.of(b.skills), b.tokenCounter, skillExecutor);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Creates a session with this id and config. */
    public Session create(String id, SessionConfig config) {
        SessionInfo info = new SessionInfo(id, tenant, userId, Require.nonNull(config, "config"), Map.of(),
                states.clock().instant(), null, null, 0);
        states.create(info, CheckpointSource.INPUT, List.of(new Event.SessionCreated(info)));
        return new SessionHandle(this, id);
    }

    /** Creates a session with a generated id. */
    public Session create(SessionConfig config) {
        return create("s-" + UUID.randomUUID().toString().substring(0, 8), config);
    }

    /** Opens an existing session of this tenant. */
    public Session open(String id) {
        SessionInfo.checkId(id, "session id");
        SessionInfo info = store.session(id).orElseThrow(() -> new SessionNotFoundException(id));
        if (!info.tenant().equals(tenant)) {
            throw new SessionNotFoundException(id); // another tenant's session is invisible, not forbidden
        }
        return new SessionHandle(this, id);
    }

    /** Opens the session, creating it with {@code config} when it does not exist. */
    public Session openOrCreate(String id, SessionConfig config) {
        SessionInfo.checkId(id, "session id");
        if (store.session(id).isPresent()) {
            return open(id);
        }
        return create(id, config);
    }

    /** This tenant's sessions, most recently updated first. */
    public List<SessionSummary> sessions() {
        return store.list(SessionQuery.tenant(tenant));
    }

    /** Deletes a session (refused while branches depend on it). */
    public void delete(String id) {
        open(id);
        store.delete(id);
        states.evict(id);
    }

    public void addListener(EventListener listener) {
        states.addListener(listener);
    }

    public StateManager states() {
        return states;
    }

    SessionRunner runner() {
        return runner;
    }

    AgentLoop loop() {
        return loop;
    }

    public StateStore store() {
        return store;
    }

    public String modelName() {
        return loop.model().name();
    }

    /** Lets queued commands finish, then closes the store. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            runner.close();
            skillExecutor.close();
            store.close();
        }
    }

    /** Wires a {@link Threadline}; every setter checks its argument at once. */
    public static final class Builder {
        private StateStore store;
        private ChatModel model;
        private final List<Skill> skills = new ArrayList<>();
        private TokenCounter tokenCounter = TokenCounter.approximate();
        private Clock clock = Clock.systemUTC();
        private int snapshotEvery = 100;
        private int cacheCapacity = 10_000;
        private String tenant = SessionInfo.DEFAULT_TENANT;
        private String userId = "local";

        private Builder() {}

        public Builder store(StateStore store) {
            this.store = Require.nonNull(store, "store");
            return this;
        }

        public Builder model(ChatModel model) {
            this.model = Require.nonNull(model, "model");
            return this;
        }

        public Builder skills(List<? extends Skill> skills) {
            this.skills.addAll(Require.nonNull(skills, "skills"));
            return this;
        }

        public Builder skill(Skill skill) {
            this.skills.add(Require.nonNull(skill, "skill"));
            return this;
        }

        /**
         * The local tokenizer context policies count messages with (default: {@code o200k_base}, an
         * approximation for non-OpenAI models); a model's own count is used for whole requests where it
         * offers one. The context policy itself is per session: {@code SessionConfig.contextPolicy}.
         */
        public Builder tokenCounter(TokenCounter counter) {
            this.tokenCounter = Require.nonNull(counter, "tokenCounter");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Require.nonNull(clock, "clock");
            return this;
        }

        /** Snapshot every {@code n} events (default 100). */
        public Builder snapshotEvery(int n) {
            Require.argument(n >= 1, "snapshotEvery", "must be at least 1, was " + n);
            this.snapshotEvery = n;
            return this;
        }

        /** How many sessions stay in memory (default 10,000); the least recently used leave first. */
        public Builder cacheCapacity(int n) {
            Require.argument(n >= 1, "cacheCapacity", "must be at least 1, was " + n);
            this.cacheCapacity = n;
            return this;
        }

        public Builder tenant(String tenant) {
            this.tenant = SessionInfo.checkId(tenant, "tenant");
            return this;
        }

        public Builder user(String userId) {
            this.userId = SessionInfo.checkId(userId, "user");
            return this;
        }

        public Threadline build() {
            if (store == null) {
                store = new InMemoryStateStore(clock);
            }
            if (model == null) {
                model = ScriptedModel.demo();
            }
            return new Threadline(this);
        }
    }
}
