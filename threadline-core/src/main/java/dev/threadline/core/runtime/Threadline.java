package dev.threadline.core.runtime;

import dev.threadline.core.Require;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.SessionInfo;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.store.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The runtime: wires a store, models, skills and policies, and hands out {@link Tenant} views through
 * which every session is reached. Thread-safe; one instance serves any number of sessions in
 * parallel, and any number of processes may run one on the same store (a session's lease decides
 * which of them runs its commands).
 *
 * {@snippet :
 * try (Threadline tl = Threadline.builder().store(store).model(model).skills(Builtins.all(workspace)).build()) {
 *     Session s = tl.tenant("acme").openOrCreate("s1", SessionConfig.DEFAULT);
 *     TurnResult r = s.submit("what is (2+3)*4");
 * }
 * }
 */
public final class Threadline implements AutoCloseable {
    private final Engine engine;
    private final ExecutorService skillExecutor;
    private final ScheduledExecutorService scheduler;
    private final boolean ownsScheduler;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Threadline(Builder b) {
        this.skillExecutor = Executors.newVirtualThreadPerTaskExecutor();
        this.ownsScheduler = b.scheduler == null;
        this.scheduler = ownsScheduler ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "threadline-leases");
            t.setDaemon(true);
            return t;
        }) : b.scheduler;
        LeaseKeeper leases = new LeaseKeeper(b.store, b.clock, b.leaseTtl, b.leaseWait, b.leaseLinger, scheduler);
        StateManager states = new StateManager(b.store, b.clock, b.snapshotEvery, b.cacheCapacity, leases);
        ModelResolver models = b.models == null ? ModelResolver.always(b.model == null ? new NoModel() : b.model)
                : b.model == null ? b.models : b.models.orElse(ModelResolver.always(b.model));
        AgentLoop loop = new AgentLoop(states, models, SkillRegistry.of(b.skills), b.tokenCounter, skillExecutor);
        leases.onInterruptRequest((key, reason) -> loop.interrupt(key, reason));
        SessionRunner runner = new SessionRunner();
        this.engine = new Engine(b.store, b.clock, states, leases, runner, loop, new CommandGate(runner, leases, states, loop), b.userId);
    }

    /**
     * A new builder; see its setters for the defaults. A store must be set ({@link Builder#build()}
     * refuses to build without one); without a model the runtime serves everything but model calls
     * (chat-memory adapters, reads, edits), and a turn fails saying no model was set.
     */
    public static Builder builder() {
        dev.threadline.core.internal.log.Logs.quietWithoutBinding();
        return new Builder();
    }

    /**
     * A builder preset for an offline demo: a new in-memory store (every session is gone once the
     * runtime is closed) and {@link ScriptedModel#demo()}, Threadline's scripted demo model, which is
     * not an LLM. Any setter may still replace either, and add skills.
     *
     * {@snippet :
     * try (Threadline tl = Threadline.demoBuilder().skills(Builtins.all(Path.of("."))).build()) {
     *     TurnResult r = tl.defaultTenant().create("demo", SessionConfig.DEFAULT).submit("what is (2+3)*4");
     * }
     * }
     */
    public static Builder demoBuilder() {
        Builder b = builder();
        b.demoStore = true; // made in build(), on the clock the builder ends up with
        b.model(ScriptedModel.demo());
        return b;
    }

    /**
     * The view of one tenant: every session operation goes through one.
     *
     * @throws dev.threadline.core.InvalidInputException when the tenant id is invalid
     */
    public Tenant tenant(String tenant) {
        return new TenantView(engine, tenant);
    }

    /** The view of tenant {@value SessionInfo#DEFAULT_TENANT}, for single-tenant uses. */
    public Tenant defaultTenant() {
        return tenant(SessionInfo.DEFAULT_TENANT);
    }

    /** The engine, for tests in this package. */
    Engine engine() {
        return engine;
    }

    /** What the store guarantees once a call returns, in one line. */
    public String durability() {
        return engine.store().durability();
    }

    /**
     * Lets queued commands finish, releases this runtime's leases, then closes the store. Idempotent.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            engine.runner().close();
            skillExecutor.close();
            engine.leases().close();
            if (ownsScheduler) {
                scheduler.shutdownNow();
            }
            engine.store().close();
        }
    }

    /** Wires a {@link Threadline}; every setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private StateStore store;
        private ChatModel model;
        private ModelResolver models;
        private final List<Skill> skills = new ArrayList<>();
        private TokenCounter tokenCounter = TokenCounter.approximate();
        private Clock clock = Clock.systemUTC();
        private int snapshotEvery = 100;
        private int cacheCapacity = 10_000;
        private String userId = "local";
        private Duration leaseTtl = Duration.ofSeconds(15);
        private Duration leaseWait = Duration.ofSeconds(60);
        private Duration leaseLinger = Duration.ofMillis(50);
        private ScheduledExecutorService scheduler;
        private boolean demoStore;

        private Builder() {}

        /**
         * The store sessions live in; required ({@code new InMemoryStateStore()} keeps them only as long
         * as the runtime). The runtime closes it when it is closed.
         */
        public Builder store(StateStore store) {
            this.store = Require.nonNull(store, "store");
            return this;
        }

        /**
         * The store a URL names: {@code sqlite:PATH}, {@code postgresql://…}, {@code redis://…},
         * {@code redis-cluster://host:port,…} or {@code memory:} (see {@link dev.threadline.core.store.StateStores}).
         *
         * @throws dev.threadline.core.InvalidInputException when no backend on the class path takes the URL
         * @throws dev.threadline.core.StorageException      when the store cannot be opened
         */
        public Builder store(String url) {
            this.store = dev.threadline.core.store.StateStores.open(url);
            return this;
        }

        /**
         * The model for sessions whose config names no model the {@link #models resolver} knows (with no
         * resolver: for every session). When neither is set, a turn fails with a {@link dev.threadline.core.llm.ModelException}
         * saying that no model was set; everything else works ({@link #demoBuilder()} presets the
         * offline scripted demo model).
         */
        public Builder model(ChatModel model) {
            this.model = Require.nonNull(model, "model");
            return this;
        }

        /** Chooses each session's model from its config's model spec (see {@link ModelResolver}). */
        public Builder models(ModelResolver resolver) {
            this.models = Require.nonNull(resolver, "models");
            return this;
        }

        /** Adds skills the model may call. */
        public Builder skills(List<? extends Skill> skills) {
            this.skills.addAll(Require.nonNull(skills, "skills"));
            return this;
        }

        /** Adds one skill the model may call. */
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

        /** The clock of event times and lease expiries (default: the system clock, UTC). */
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

        /** The user new sessions belong to unless {@link NewSession#userId()} says otherwise (default "local"). */
        public Builder user(String userId) {
            this.userId = SessionInfo.checkId(userId, "user");
            return this;
        }

        /**
         * How long a session's lease lasts unless renewed (default 15 s). A process that stalls longer
         * than this loses the session to the next process that wants it; shorter means faster take-over.
         * It is also the longest this runtime keeps a session it never leaves idle: after holding the
         * lease a whole ttl it gives it up between two commands and waits a tenth of the ttl (4–100 ms)
         * before taking it again, so a command of another process waiting for the session gets in.
         */
        public Builder leaseTtl(Duration ttl) {
            Require.argument(ttl != null && ttl.toMillis() >= 40, "leaseTtl", "must be at least 40 ms, was " + ttl);
            this.leaseTtl = ttl;
            return this;
        }

        /** How long a command waits for a session another process holds before failing (default 60 s; 0 = fail at once). */
        public Builder leaseWait(Duration wait) {
            Require.argument(wait != null && !wait.isNegative(), "leaseWait", "must not be negative, was " + wait);
            this.leaseWait = wait;
            return this;
        }

        /**
         * How long a lease is kept after a session's last command, to spare a command that follows at once a
         * store write (default 50 ms: back-to-back commands keep it, and another process waiting for the
         * session gets it soon after this one goes quiet, or after at most one {@link #leaseTtl} of
         * commands without a break).
         */
        public Builder leaseLinger(Duration linger) {
            Require.argument(linger != null && !linger.isNegative(), "leaseLinger", "must not be negative, was " + linger);
            this.leaseLinger = linger;
            return this;
        }

        /** The scheduler that renews and releases leases (default: one daemon thread of the runtime's own). */
        public Builder scheduler(ScheduledExecutorService scheduler) {
            this.scheduler = Require.nonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * Builds the runtime.
         *
         * @throws dev.threadline.core.InvalidInputException when no store was set
         */
        public Threadline build() {
            if (store == null && demoStore) {
                store = new InMemoryStateStore(clock);
            }
            if (store == null) {
                throw new dev.threadline.core.InvalidInputException("store", "none was set: call store(StateStore) or store(url)"
                        + " before build() (new InMemoryStateStore() keeps sessions in memory only), or start from"
                        + " Threadline.demoBuilder() for the offline demo");
            }
            return new Threadline(this);
        }
    }
}
