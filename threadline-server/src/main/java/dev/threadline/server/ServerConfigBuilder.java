package dev.threadline.server;

import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.Skill;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Builds a {@link ServerConfig} with its settings grouped by concern, each group set through a lambda as
 * Javalin's config does: {@link #http} (where and how it listens), {@link #sessions} (what sessions run on),
 * {@link #leases} (how nodes share sessions), {@link #observability} (logs, metrics, traces), besides the
 * {@link #store} and the {@link #limits}. Made by {@link ServerConfig#builder} or {@link ServerConfig#toBuilder};
 * {@link #build} checks the whole config. Not thread-safe: one builder per thread.
 */
public final class ServerConfigBuilder {
    private final Http http = new Http();
    private final Sessions sessions = new Sessions();
    private final Leases leases = new Leases();
    private final Observability observability = new Observability();
    private String store;
    private Limits limits;

    ServerConfigBuilder(ServerConfig from) {
        store = from.store();
        limits = from.limits();
        http.host = from.host();
        http.port = from.port();
        http.heartbeat = from.heartbeat();
        http.shutdownGrace = from.shutdownGrace();
        sessions.defaults = from.sessionDefaults();
        sessions.models = from.models();
        sessions.skills = from.skills();
        sessions.workspace = from.workspace();
        sessions.retention = from.retention();
        sessions.prices = from.prices();
        leases.waitFor = from.leaseWait();
        leases.linger = from.leaseLinger();
        observability.logContent = from.logContent();
        observability.metricsToken = from.metricsToken();
        observability.telemetry = from.telemetry();
    }

    /** The store URL of the sessions and the API keys (see {@link ServerConfig#store()}). */
    public ServerConfigBuilder store(String storeUrl) {
        this.store = Objects.requireNonNull(storeUrl, "store");
        return this;
    }

    /** What one request, turn and tenant may use. */
    public ServerConfigBuilder limits(Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        return this;
    }

    /** Sets where and how the server listens. */
    public ServerConfigBuilder http(Consumer<Http> settings) {
        settings.accept(http);
        return this;
    }

    /** Sets what sessions run on and how long they are kept. */
    public ServerConfigBuilder sessions(Consumer<Sessions> settings) {
        settings.accept(sessions);
        return this;
    }

    /** Sets how this node shares sessions with the others on its store. */
    public ServerConfigBuilder leases(Consumer<Leases> settings) {
        settings.accept(leases);
        return this;
    }

    /** Sets what the server tells operators: logs, metrics and traces. */
    public ServerConfigBuilder observability(Consumer<Observability> settings) {
        settings.accept(observability);
        return this;
    }

    /**
     * The config.
     *
     * @throws IllegalArgumentException as {@link ServerConfig}'s constructor does (a port outside 0-65535, a bad metrics token)
     * @throws NullPointerException     naming a required setting that was set to null
     */
    public ServerConfig build() {
        return new ServerConfig(store, http.host, http.port, limits, sessions.workspace, http.shutdownGrace, http.heartbeat,
                leases.waitFor, leases.linger, sessions.models, sessions.skills, sessions.defaults, observability.logContent,
                observability.metricsToken, sessions.retention, observability.telemetry, sessions.prices);
    }

    /** Where and how the server listens. Not thread-safe. */
    public static final class Http {
        private String host;
        private int port;
        private Duration heartbeat;
        private Duration shutdownGrace;

        private Http() {}

        /** The address to bind (default {@code 127.0.0.1}: loopback only). */
        public Http host(String host) {
            this.host = host;
            return this;
        }

        /** The port, or 0 for a free one (default 8080). */
        public Http port(int port) {
            this.port = port;
            return this;
        }

        /** How often an idle SSE stream sends a comment line (default 15 s). */
        public Http heartbeat(Duration heartbeat) {
            this.heartbeat = heartbeat;
            return this;
        }

        /** How long closing lets running turns finish before interrupting them (default 10 s). */
        public Http shutdownGrace(Duration grace) {
            this.shutdownGrace = grace;
            return this;
        }
    }

    /** What sessions run on and how long they are kept. Not thread-safe. */
    public static final class Sessions {
        private SessionConfig defaults;
        private ModelResolver models;
        private List<Skill> skills;
        private Path workspace;
        private RetentionPolicy retention;
        private dev.threadline.core.llm.PriceTable prices;

        private Sessions() {}

        /** The config of a session created without one, and the base a create's config changes. */
        public Sessions defaults(SessionConfig defaults) {
            this.defaults = defaults;
            return this;
        }

        /** The models sessions run on, or null for those of the environment. */
        public Sessions models(ModelResolver models) {
            this.models = models;
            return this;
        }

        /** Skills served beside the built-in ones. */
        public Sessions skills(List<Skill> skills) {
            this.skills = skills;
            return this;
        }

        /** The folder the file skills may read, or null to leave them out (the default). */
        public Sessions workspace(Path workspace) {
            this.workspace = workspace;
            return this;
        }

        /** What the operator pays per model (null: none); each reply's cost is recorded with its usage. */
        public Sessions prices(dev.threadline.core.llm.PriceTable prices) {
            this.prices = prices;
            return this;
        }

        /** Sessions' default ttl and how often this server sweeps expired ones. */
        public Sessions retention(RetentionPolicy retention) {
            this.retention = retention;
            return this;
        }
    }

    /** How this node shares sessions with the other nodes on its store. Not thread-safe. */
    public static final class Leases {
        private Duration waitFor;
        private Duration linger;

        private Leases() {}

        /** How long a command waits for a session another node is running (default 30 s). */
        public Leases waitFor(Duration wait) {
            this.waitFor = wait;
            return this;
        }

        /** How long this node keeps a session's lease after a command (default zero). */
        public Leases linger(Duration linger) {
            this.linger = linger;
            return this;
        }
    }

    /** What the server tells operators. Not thread-safe. */
    public static final class Observability {
        private boolean logContent;
        private String metricsToken;
        private Map<String, String> telemetry;

        private Observability() {}

        /** Whether logs may quote message content (default off). */
        public Observability logContent(boolean logContent) {
            this.logContent = logContent;
            return this;
        }

        /** The bearer token {@code /metrics} requires, or null for an open {@code /metrics} (the default). */
        public Observability metricsToken(String token) {
            this.metricsToken = token;
            return this;
        }

        /** OpenTelemetry settings by their {@code OTEL_*} names, over the process environment's. */
        public Observability telemetry(Map<String, String> telemetry) {
            this.telemetry = telemetry;
            return this;
        }
    }
}
