// Over 400 lines on purpose: the runtime's one public entry point and its builder, each setter documented;
// the engine behind it lives in internal.engine.
package dev.threadline.core;

import dev.threadline.core.error.Require;
import dev.threadline.core.internal.engine.*;
import dev.threadline.core.internal.engine.live.*;
import dev.threadline.core.internal.engine.loop.*;
import dev.threadline.core.internal.engine.state.*;
import dev.threadline.core.internal.engine.trace.Tracing;
import dev.threadline.core.llm.*;
import dev.threadline.core.runtime.LiveSessions;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.*;
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
    private final StateStore store;
    private final StateManager states;
    private final CommandGate gate;
    private final LiveRegistry live;
    private final SessionRunner runner;
    private final LeaseKeeper leases;
    private final Sessions sessions;
    private final SessionCommands commands;
    private final SessionReads reads;
    private final Retention retention;
    private final Lifecycle lifecycle;
    private final Listeners listeners;
    private final ExecutorService deliveries;
    private final ExecutorService skillExecutor;
    private final boolean ownsSkillExecutor;
    private final ScheduledExecutorService scheduler;
    private final boolean ownsScheduler;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Wires the engine: each part takes the store roles and parts it uses, nothing more. */
    private Threadline(Builder b) {
        this.store = b.store;
        this.ownsSkillExecutor = b.skillExecutor == null;
        this.skillExecutor = ownsSkillExecutor ? Executors.newVirtualThreadPerTaskExecutor() : b.skillExecutor;
        this.ownsScheduler = b.scheduler == null;
        this.scheduler = ownsScheduler ? Waits.defaultScheduler() : b.scheduler;
        this.deliveries = Executors.newVirtualThreadPerTaskExecutor();
        Waits waits = new Waits(b.clock, scheduler);
        Tracing tracing = new Tracing(b.openTelemetry);
        this.live = new LiveRegistry(scheduler);
        this.runner = new SessionRunner(live, Executors.newVirtualThreadPerTaskExecutor(), tracing);
        this.listeners = new Listeners(live, deliveries);
        this.leases = new LeaseKeeper(store, live, waits, LeaseTimes.of(b.leaseTtl, b.leaseWait, b.leaseLinger));
        JournalReader journal = new JournalReader(store, store, store, store, store);
        this.states = new StateManager(journal, store, store, store, store, leases, live, listeners, b.clock,
                new StateManager.Tuning(b.snapshotEvery, b.cacheCapacity), tracing);
        ModelResolver models = b.models == null ? ModelResolver.always(b.model == null ? new NoModel() : b.model)
                : b.model == null ? b.models : b.models.orElse(ModelResolver.always(b.model));
        SkillRegistry skills = SkillRegistry.of(b.skills);
        AgentLoop loop = new AgentLoop(states, models, skills, b.tokenCounter,
                new ToolExecutor(states, skills, store, skillExecutor, waits, tracing, journal), live, tracing, b.prices);
        leases.onInterruptRequest(loop::interrupt);
        this.gate = new CommandGate(runner, leases, states, store, live);
        Branches branches = new Branches(states, loop, journal, gate, b.clock, tracing);
        this.commands = new SessionCommands(gate, states, loop, new HumanCommands(states, loop, tracing),
                new DoubleTexts(states, loop, branches, journal, store, leases, b.clock), new Compensations(states, skills, journal, b.clock),
                branches, journal, runner::execute);
        this.reads = new SessionReads(states, journal, store, loop);
        this.sessions = new Sessions(states, loop, gate, store, leases, b.clock, b.userId, b.sessionTtl);
        this.lifecycle = new Lifecycle(this::tenant, sessions, gate, store, store, store, store, store::scrub, b.clock,
                holds -> new Pruning(store, store, journal, states, gate, b.clock, holds));
        this.retention = new Retention(store, store, b.clock, states, leases, lifecycle::allHolds);
    }

    /**
     * A new builder; see its setters for the defaults. A store must be set ({@link Builder#build()}
     * refuses to build without one); without a model the runtime serves everything but model calls
     * (chat-memory adapters, reads, edits), and a turn fails saying no model was set.
     */
    public static Builder builder() {
        dev.threadline.core.log.Logs.quietWithoutBinding();
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
     * @throws dev.threadline.core.error.InvalidInputException when the tenant id is invalid
     */
    public Tenant tenant(String tenant) {
        return new TenantView(sessions, commands, reads, listeners, tenant);
    }

    /** The view of tenant {@value SessionInfo#DEFAULT_TENANT}, for single-tenant uses. */
    public Tenant defaultTenant() {
        return tenant(SessionInfo.DEFAULT_TENANT);
    }

    /**
     * What this runtime has live now: sessions with commands queued or running here, turns running here,
     * leases held; for gauges, and to let running turns finish (or interrupt them) before closing.
     */
    public LiveSessions live() {
        return live.view();
    }

    /**
     * One pass of retention over every tenant: deletes up to {@code limit} (1 to 1000) sessions whose {@link
     * SessionInfo#expiresAt() expiry} passed by this runtime's clock, oldest first; never one whose lease is held and
     * not expired (a turn may be running), nor one that unexpired branches depend on or a legal hold covers. Any number of processes may
     * sweep a store at once. Fails with an {@code InvalidInputException} (a bad limit) or a {@code StorageException}.
     */
    public dev.threadline.core.runtime.SweepResult sweep(int limit) {
        return retention.sweep(limit);
    }

    /**
     * Legal holds, erasure and history pruning over every tenant of this runtime's store: place and lift holds (retention,
     * pruning and erasure skip or refuse what they cover), erase a subject everywhere with a receipt, prune histories (ADR 0045).
     */
    public dev.threadline.core.runtime.DataLifecycle lifecycle() {
        return lifecycle;
    }

    /** The state manager, for the engine's own tests (package-private: not API). */
    StateManager states() {
        return states;
    }

    /** The command gate, for the engine's own tests (package-private: not API). */
    CommandGate gate() {
        return gate;
    }

    /** The store, for the engine's own tests (package-private: not API). */
    StateStore store() {
        return store;
    }

    /** What the store guarantees once a call returns, in one line. */
    public String durability() {
        return store.durability();
    }

    /** Lets queued commands finish, releases this runtime's leases, then closes the store. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            runner.close();
            deliveries.close(); // after the commands: the steps they committed are heard before close returns
            if (ownsSkillExecutor) {
                skillExecutor.close();
            }
            leases.close();
            if (ownsScheduler) {
                scheduler.shutdownNow();
            }
            store.close();
        }
    }

    /** Wires a {@link Threadline}; every setter checks its argument at once. Not thread-safe. */
    public static final class Builder {
        private StateStore store;
        private ChatModel model;
        private ModelResolver models;
        private final List<Skill> skills = new ArrayList<>();
        private TokenCounter tokenCounter = TokenCounter.approximate();
        private dev.threadline.core.llm.PriceTable prices = dev.threadline.core.llm.PriceTable.NONE;
        private Clock clock = Clock.systemUTC();
        private int snapshotEvery = 100;
        private int cacheCapacity = 10_000;
        private String userId = "local";
        private Duration leaseTtl = Duration.ofSeconds(15);
        private Duration leaseWait = Duration.ofSeconds(60);
        private Duration leaseLinger = Duration.ofMillis(50);
        private ScheduledExecutorService scheduler;
        private ExecutorService skillExecutor;
        private java.util.function.Function<String, Duration> sessionTtl = tenant -> null;
        private boolean demoStore;
        private OpenTelemetry openTelemetry = OpenTelemetry.noop();

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
         * @throws dev.threadline.core.error.InvalidInputException when no backend on the class path takes the URL
         * @throws dev.threadline.core.error.StorageException      when the store cannot be opened
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

        /**
         * What the operator pays for models (default: no prices, every call costs 0): each model reply's usage is
         * recorded with its cost at these prices ({@code Usage.costMicros}), summed per turn and per session.
         */
        public Builder prices(dev.threadline.core.llm.PriceTable table) {
            this.prices = Require.nonNull(table, "prices");
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

        /**
         * How long a session created without its own {@link NewSession#ttl()} lives before retention
         * ({@link #sweep}) may remove it, by tenant: {@code byTenant} answers a tenant's default, or null for
         * never (the default for every tenant). Called at each create; a fork or rewind keeps its parent's expiry.
         */
        public Builder sessionTtl(java.util.function.Function<String, Duration> byTenant) {
            this.sessionTtl = Require.nonNull(byTenant, "sessionTtl");
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

        /**
         * The scheduler that keeps every deadline of the runtime: lease renewals and releases, waits for a
         * lease another process holds, tool timeouts (default: one daemon thread of the runtime's own). With
         * {@link #clock}, what a test injects to drive time itself. The runtime does not shut down a
         * scheduler it was given; a {@code ScheduledThreadPoolExecutor} given here should drop cancelled
         * tasks at once ({@code setRemoveOnCancelPolicy(true)}): every tool call sets an alarm and cancels it.
         */
        public Builder scheduler(ScheduledExecutorService scheduler) {
            this.scheduler = Require.nonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * Where skills run (default: a virtual thread per call, the runtime's own). A skill's deadline is
         * kept by the {@link #scheduler}, which cancels its run at the timeout. The runtime does not shut
         * down an executor it was given.
         */
        public Builder skillExecutor(ExecutorService executor) {
            this.skillExecutor = Require.nonNull(executor, "skillExecutor");
            return this;
        }

        /**
         * Where the runtime's spans go (default: {@link OpenTelemetry#noop()}, tracing off at no cost). Given an
         * OpenTelemetry SDK, the runtime records a span per turn ({@code invoke_agent}), model call
         * ({@code chat}) and tool call ({@code execute_tool}) with the GenAI attributes, and its own for journal
         * appends, snapshots, compactions, forks, rewinds and approvals; each is a child of the span current
         * on the thread that sends the command. Spans carry ids, names, counts and outcomes, never message
         * content (docs/operations.md, "Traces"). The runtime neither configures nor closes the instance.
         */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Require.nonNull(openTelemetry, "openTelemetry");
            return this;
        }

        /**
         * Builds the runtime.
         *
         * @throws dev.threadline.core.error.InvalidInputException when no store was set
         */
        public Threadline build() {
            if (store == null && demoStore) {
                store = new InMemoryStateStore(clock);
            }
            if (store == null) {
                throw new dev.threadline.core.error.InvalidInputException("store", "none was set: call store(StateStore) or store(url)"
                        + " before build() (new InMemoryStateStore() keeps sessions in memory only), or start from"
                        + " Threadline.demoBuilder() for the offline demo");
            }
            return new Threadline(this);
        }
    }
}
