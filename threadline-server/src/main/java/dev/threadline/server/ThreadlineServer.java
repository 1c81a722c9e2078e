package dev.threadline.server;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.LiveSessions;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.skill.builtin.ListFilesSkill;
import dev.threadline.core.skill.builtin.ReadFileSkill;
import dev.threadline.core.store.StateStores;
import dev.threadline.models.Models;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.server.http.JettyProblems;
import dev.threadline.server.http.KeyAuth;
import dev.threadline.server.http.Problem;
import dev.threadline.server.http.ProblemWriter;
import dev.threadline.server.http.Problems;
import dev.threadline.server.http.RequestChecks;
import dev.threadline.server.http.SlowClients;
import dev.threadline.server.http.Utf8Only;
import dev.threadline.server.compat.Errors;
import dev.threadline.server.keys.KeyStore;
import dev.threadline.server.webhooks.WebhookSettings;
import dev.threadline.server.webhooks.Webhooks;
import dev.threadline.server.keys.NewKey;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code threadline serve}: the HTTP API over a Threadline runtime on a store (SQLite, PostgreSQL,
 * Redis, ...), with API keys per tenant kept in that store. Started with {@link #start}, stopped with
 * {@link #close}. Thread-safe. Several servers may share one store; each runs the commands it is sent,
 * and sessions' leases keep their writes in one linear history.
 */
public final class ThreadlineServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadlineServer.class);
    private static final String COUNTED = "threadline.inFlight";
    /** What a turn interrupted by shutdown records as its reason. */
    static final String SHUTDOWN_REASON = "the server is shutting down";

    private final Api api;
    private final Javalin app;
    private final URI url;
    private final NewKey createdKey;
    private final boolean ownsRuntime;
    private final Sweeper sweeper;
    private final ServerTracing tracing;

    private ThreadlineServer(Api api, Javalin app, URI url, NewKey createdKey, boolean ownsRuntime, ServerTracing tracing) {
        this.tracing = tracing;
        this.api = api;
        this.app = app;
        this.url = url;
        this.createdKey = createdKey;
        this.ownsRuntime = ownsRuntime;
        this.sweeper = Sweeper.start(api.runtime, api.config.retention(), api.metrics,
                () -> api.keys.list().stream().filter(k -> k.active() && !k.admin()).map(k -> k.tenant()).distinct().toList());
    }

    /**
     * Opens the store, builds a runtime on it with the config's models and skills, creates a key for
     * tenant {@code default} when the store has no valid key, and starts listening. {@link #close}
     * closes that runtime and the store.
     *
     * @throws dev.threadline.core.error.StorageException when the store cannot be opened
     * @throws dev.threadline.core.error.InvalidInputException when the store URL names no known kind of store
     * @throws IllegalStateException                when the port cannot be bound
     */
    public static ThreadlineServer start(ServerConfig config) {
        List<Skill> skills = skills(config);
        ServerMetrics metrics = new ServerMetrics(skills.stream().map(Skill::name).toList());
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(config.telemetry());
        ServerTracing tracing = ServerTracing.configure(env);
        Threadline runtime;
        try {
            runtime = Threadline.builder().store(StateStores.open(config.store())).openTelemetry(tracing.openTelemetry())
                .models(metrics.timed(config.models() != null ? config.models() : environmentModels()))
                .skills(skills).leaseWait(config.leaseWait()).leaseLinger(config.leaseLinger())
                .sessionTtl(tenant -> config.retention().sessionTtl()).prices(config.prices()).build();
        } catch (RuntimeException e) {
            tracing.close();
            throw e;
        }
        KeyStore keys = null;
        Webhooks webhooks = null;
        try {
            keys = KeyStore.open(config.store());
            // memory: opens a new store each time, which would hold none of the runtime's sessions
            webhooks = config.store().startsWith("memory:") ? null : Webhooks.start(config.store(), WebhookSettings.DEFAULTS);
            return serve(runtime, true, keys, webhooks, config, metrics, StateStores.redact(config.store()), tracing);
        } catch (RuntimeException e) {
            if (webhooks != null) {
                webhooks.close();
            }
            if (keys != null) {
                keys.close();
            }
            runtime.close();
            tracing.close();
            throw e;
        }
    }

    /**
     * Serves {@code runtime}, which the caller built (its store, models, skills, leases), with the HTTP
     * settings of {@code config}: host, port, limits, grace, heartbeat, session defaults, logging, metrics
     * token, retention sweeps. The runtime's own settings win: {@code config.store()}, {@code leaseWait()} and
     * {@code leaseLinger()} are not used, and a config that sets models, skills, a workspace or a default
     * session ttl is refused, since those belong on the runtime's builder. The API keys are kept in the runtime's store, in its
     * reserved tenant {@value KeyStore#TENANT} ({@link KeyStore#on}); a key for tenant {@code default} is
     * created when it has no valid key. The {@code tool} tag of the meters is {@code other} for every
     * tool, and no model latency is metered, since the server cannot see the runtime's skills or models.
     *
     * <p>{@link #close} stops the server, not the runtime: it refuses new requests, lets the answers in
     * flight finish within the grace period (turns are not interrupted: the runtime may run the caller's
     * own), stops listening and takes its listeners off the runtime. The caller closes the runtime, after
     * the server.
     *
     * @throws IllegalArgumentException when {@code config} sets models, skills, a workspace or a default session ttl
     * @throws dev.threadline.core.error.StorageException when the runtime's store cannot be read
     * @throws IllegalStateException    when the port cannot be bound
     */
    public static ThreadlineServer start(Threadline runtime, ServerConfig config) {
        java.util.Objects.requireNonNull(runtime, "runtime");
        if (config.models() != null || !config.skills().isEmpty() || config.workspace() != null
                || config.retention().sessionTtl() != null) {
            throw new IllegalArgumentException("a server of a caller's runtime takes its models, skills, files and sessions' default"
                    + " ttl from that runtime: set them on its Threadline.builder(), not on the ServerConfig");
        }
        KeyStore keys = KeyStore.on(runtime);
        try {
            return serve(runtime, false, keys, null, config, new ServerMetrics(List.of()), "a caller's runtime", ServerTracing.OFF);
        } catch (RuntimeException e) {
            keys.close();
            throw e;
        }
    }

    private static ThreadlineServer serve(Threadline runtime, boolean owned, KeyStore keys, Webhooks webhooks, ServerConfig config,
                                          ServerMetrics metrics, String what, ServerTracing tracing) {
        NewKey created = keys.hasActiveKey() ? null : keys.create("default");
        Api api = new Api(runtime, keys, webhooks, config, metrics);
        if (webhooks != null) {
            webhooks.listenTo(api::tenantView);
        }
        try {
            Javalin app = Javalin.create(cfg -> {
                configure(cfg, api);
                trace(cfg, tracing);
            }).start(config.host(), config.port());
            String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
            URI url = URI.create("http://" + host + ":" + app.port());
            LOG.debug("serving {} on {}", what, url);
            return new ThreadlineServer(api, app, url, created, owned, tracing);
        } catch (RuntimeException e) {
            api.detachListeners();
            throw e;
        }
    }

    /**
     * The models of the environment, as {@code threadline chat} resolves them. The HTTP client of the
     * providers is made on the first spec that needs one: making it initialises TLS, which takes seconds
     * on a loaded machine, and a server of scripted sessions never needs it.
     */
    private static ModelResolver environmentModels() {
        ModelResolver scripted = ModelResolver.always(ScriptedModel.demo());
        java.util.concurrent.atomic.AtomicReference<ModelResolver> providers = new java.util.concurrent.atomic.AtomicReference<>();
        return new ModelResolver() {
            @Override
            public Optional<ChatModel> find(String spec) {
                return find(spec, null);
            }

            @Override
            public Optional<ChatModel> find(String spec, String baseUrl) {
                if (spec.strip().equals(Models.SCRIPTED)) {
                    return scripted.find(spec);
                }
                ModelResolver r = providers.get();
                if (r == null) {
                    providers.compareAndSet(null, Models.resolver(null, System.getenv(), 0, HttpSettings.defaults()));
                    r = providers.get();
                }
                return r.find(spec, baseUrl); // a session's saved base URL (Edit.SetModel) applies under serve too
            }
        };
    }

    private static List<Skill> skills(ServerConfig config) {
        Path workspace = config.workspace();
        List<Skill> all = new java.util.ArrayList<>(Builtins.all(workspace != null ? workspace : Path.of("").toAbsolutePath()));
        if (workspace == null) {
            all.removeIf(s -> s.name().equals(ReadFileSkill.NAME) || s.name().equals(ListFilesSkill.NAME));
        }
        all.add(Builtins.askUser()); // callers answer it with POST .../answers/{toolUseId}
        all.addAll(config.skills());
        return all;
    }

    /** When tracing is on: a server span per request (the parent of its turn's), named after its route by the request logger. */
    private static void trace(JavalinConfig cfg, ServerTracing tracing) {
        if (!tracing.on()) {
            return;
        }
        jakarta.servlet.Filter filter = tracing.requests();
        cfg.jetty.modifyServletContextHandler(handler -> handler.addFilter(new org.eclipse.jetty.ee10.servlet.FilterHolder(filter), "/*",
                java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST)));
    }

    private static void configure(JavalinConfig cfg, Api api) {
        cfg.concurrency.useVirtualThreads = true;
        cfg.startup.showJavalinBanner = false;
        cfg.startup.showOldJavalinVersionWarning = false;
        cfg.http.maxRequestSize = api.limits().maxBodyBytes();
        cfg.http.compressionStrategy = CompressionStrategy.NONE;
        cfg.jetty.modifyServer(server -> {
            server.setErrorHandler(new JettyProblems());
            server.setStopTimeout(api.config.shutdownGrace().toMillis()); // connectors stop gracefully too
            server.addBean(new org.eclipse.jetty.server.NetworkConnectionLimit(api.limits().maxConnections(), server));
            SlowClients slowClients = new SlowClients(server, api.limits().readTimeoutMillis());
            server.addBean(slowClients);
            server.setHandler(slowClients.handler()); // Javalin attaches its servlet context inside this wrapper
        });
        cfg.jetty.modifyServletContextHandler(handler -> handler.setErrorHandler(new JettyProblems()));
        cfg.requestLogger.http((ctx, ms) -> { // called once the answer is written, unlike after-handlers
            String route = route(ctx);
            api.metrics.request(ctx.method().name(), route, ctx.statusCode(), Duration.ofNanos((long) (ms * 1_000_000)));
            ServerTracing.route(ctx.method().name(), route); // the request's span, when tracing is on
            if (ctx.attribute(COUNTED) != null) {
                ctx.attribute(COUNTED, null);
                try {
                    ctx.res().flushBuffer(); // on the wire before shutdown may stop the connector
                } catch (java.io.IOException gone) {
                    // the client left; nothing to deliver
                } finally {
                    api.inFlight.end();
                }
            }
        });
        cfg.events.handlerAdded(h -> {
            if (h.getHttpMethod().isHttpMethod()) {
                api.routes.add(h.getHttpMethod().name() + " " + h.getPath());
            }
        });
        KeyAuth auth = new KeyAuth(List.of("Authorization"), api.closing::get, secret -> api.keys.tenantOf(secret).map(api::tenantView),
                "send a valid API key as Authorization: Bearer <key>");
        cfg.routes.before(ctx -> {
            api.inFlight.begin();
            ctx.attribute(COUNTED, Boolean.TRUE);
        });
        cfg.routes.before(RequestChecks::escapes); // before any route reads an id or a query parameter
        cfg.routes.before("/v1/*", ctx -> ctx.attribute(Api.TENANT, AdminRoutes.guard(ctx, auth.authenticate(ctx))));
        new SessionRoutes(api).register(cfg.routes);
        new TurnRoutes(api).register(cfg.routes);
        new EventRoutes(api).register(cfg.routes);
        new HistoryRoutes(api).register(cfg.routes);
        new CommandRoutes(api).register(cfg.routes);
        new OpsRoutes(api).register(cfg.routes);
        new AdminRoutes(api).register(cfg.routes);
        new WebhookRoutes(api).register(cfg.routes);
        CompatMount.register(cfg, api); // /langgraph and /openai/v1: docs/compatibility.md
        InspectorRoutes.mount(cfg);
        cfg.routes.before(ctx -> Utf8Only.check(ctx, api.limits().maxBodyBytes())); // after the keys are checked: a caller without one learns nothing more
        cfg.routes.exception(Exception.class, (e, ctx) -> {
            if (CompatMount.serves(ctx.path())) {
                Errors.write(ctx, e); // a refusal before the surface's route (e.g. a malformed path): in its SDKs' shape too
            } else {
                problem(ctx, api.metrics, Problems.of(e));
            }
        });
        for (int status : new int[] {400, 404, 405, 413, 414, 431, 500}) { // Javalin's own answers, as problems too
            cfg.routes.error(status, "*", ctx -> {
                if (status == 404 && !isProblem(ctx) && AllowedMethods.answer405(ctx, api)) {
                    return;
                }
                if (!isProblem(ctx)) {
                    problem(ctx, api.metrics, Problems.of(new HttpResponseException(status, "")));
                }
            });
        }
    }

    /** The matched route template (no ids, so the meter's tags stay few), or "unmatched". */
    private static String route(Context ctx) {
        try {
            return ctx.endpoint().path;
        } catch (RuntimeException none) {
            return "unmatched";
        }
    }

    private static boolean isProblem(Context ctx) {
        String type = ctx.res().getContentType();
        return type != null && type.startsWith(Problem.MEDIA_TYPE);
    }

    static void problem(Context ctx, ServerMetrics metrics, Problem p) {
        if (ProblemWriter.write(ctx, p, ProblemWriter.RFC_9457)) {
            metrics.problem(p);
        }
    }

    /** Where the server listens, e.g. {@code http://127.0.0.1:43121} (the bound port when started on 0). */
    public URI url() {
        return url;
    }

    /** The key created at this start because the key file had none (print it once), or empty. */
    public Optional<NewKey> createdKey() {
        return Optional.ofNullable(createdKey);
    }

    /** The routes served, as {@code METHOD /path} with Javalin's {@code {param}} placeholders (the OpenAPI document lists these). */
    public List<String> routes() {
        return List.copyOf(api.routes);
    }

    /** The server's key store (to create keys while it runs). */
    public KeyStore keys() {
        return api.keys;
    }

    /**
     * Shuts down gracefully: refuses new requests (503), lets running turns finish within the grace
     * period and interrupts the rest, ends observers' SSE streams, waits (bounded by the grace period)
     * for the answers in flight to be written, stops listening, then closes the key store and the
     * runtime, which releases this node's leases. A server of a caller's runtime
     * ({@link #start(Threadline, ServerConfig)}) neither interrupts that runtime's turns nor closes it.
     * Idempotent.
     */
    @Override
    public void close() {
        if (!api.closing.compareAndSet(false, true)) {
            return;
        }
        if (sweeper != null) {
            sweeper.close();
        }
        if (ownsRuntime) {
            drain(api.config.shutdownGrace());
        }
        api.streams.closeAll(); // observers' streams; a turn's stream ends with its turn
        api.inFlight.awaitIdle(api.config.shutdownGrace()); // the answers of the turns that just ended are written
        app.stop();
        if (api.webhooks != null) {
            api.webhooks.close(); // before the runtime: it listens to its tenants
        }
        api.keys.close();
        if (ownsRuntime) {
            api.runtime.close();
        } else {
            api.detachListeners();
        }
        tracing.close(); // after the last turn: its spans are exported before the SDK stops
        LOG.debug("stopped {}", url);
    }

    /** Exports the spans ended so far (tests: no waiting for the batch's schedule). */
    void flushTraces() {
        tracing.flush();
    }

    /** Whether this server records traces (an exporter or OTLP endpoint is set). */
    boolean tracesOn() {
        return tracing.on();
    }

    /**
     * Lets the commands this node runs or holds end within {@code grace}; then interrupts the turns still
     * running and waits (another {@code grace} at most) for them to record their interruption. What runs
     * is the engine's to know ({@code Threadline.live()}): it covers every tenant, and the commands of the
     * compatible surfaces too.
     */
    private void drain(Duration grace) {
        LiveSessions live = api.runtime.live();
        if (!live.awaitQuiet(grace)) {
            int asked = live.interruptAll(SHUTDOWN_REASON);
            LOG.info("shutdown: {} turn(s) still running after {}; interrupted", asked, grace);
            live.awaitQuiet(grace);
        }
    }
}
