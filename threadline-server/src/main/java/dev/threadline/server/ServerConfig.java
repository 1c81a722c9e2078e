package dev.threadline.server;

import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.Skill;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import dev.threadline.core.llm.PriceTable;

/**
 * How a {@link ThreadlineServer} runs. Immutable; build one with {@link #builder} (settings grouped by concern),
 * or change one with {@link #toBuilder} or the {@code with...} methods. A config
 * file ({@link ConfigFile}) gives the same settings to {@code threadline serve --config FILE}.
 *
 * @param store           the store URL of the sessions and the API keys ({@code sqlite:PATH}, {@code postgresql://…},
 *                        {@code redis://…}, {@code redis-cluster://…}, {@code memory:}); every node on one store shares both.
 *                        A server of a caller's runtime ({@link ThreadlineServer#start(dev.threadline.core.Threadline, ServerConfig)})
 *                        serves that runtime's store instead, and ignores this, {@code leaseWait} and {@code leaseLinger}
 * @param host            the address to bind (default {@code 127.0.0.1}: loopback only)
 * @param port            the port, or 0 for a free one (the bound URL is {@link ThreadlineServer#url()})
 * @param limits          what one request, turn and tenant may use
 * @param workspace       the folder {@code read_file} and {@code list_files} may read, or null to leave those
 *                        skills out (a server's callers are remote, so files are opt-in)
 * @param shutdownGrace   how long closing lets running turns finish before interrupting them
 * @param heartbeat       how often an idle SSE stream sends a comment line (which also detects gone clients)
 * @param leaseWait       how long a command waits for a session another node is running
 * @param leaseLinger     how long this node keeps a session's lease after a command, in case the next one comes
 *                        here too (default zero: let it go at once, so that the next command may run on any node
 *                        without waiting for the lease to lapse; each command then writes its lease twice)
 * @param models          the models sessions run on, or null for those of the environment (as {@code threadline chat}
 *                        resolves them: {@code scripted}, Anthropic and OpenAI models when their keys are set)
 * @param skills          skills served beside the built-in ones ({@code calculate}, {@code meeting_minutes},
 *                        {@code ask_user}, and the file skills with a workspace); empty for none
 * @param sessionDefaults the config of a session created without one, and the base a create's {@code config} changes
 * @param logContent      whether logs may quote message content (off by default: logs never hold what users wrote)
 * @param metricsToken    the bearer token {@code /metrics} requires ({@code Authorization: Bearer TOKEN}, what a
 *                        Prometheus scrape config's {@code authorization} section sends), or null (the default) for
 *                        an open {@code /metrics}, as suits a loopback server; printable ASCII without spaces
 * @param retention       sessions' default ttl and how often this server sweeps expired ones (null: {@link RetentionPolicy#DEFAULT})
 * @param telemetry       OpenTelemetry settings by their {@code OTEL_*} variable names, over the process environment's
 *                        (empty: the environment's alone); traces are off unless one of them sets an exporter or an OTLP
 *                        endpoint (docs/operations.md, "Traces"). Not used by a server of a caller's runtime
 * @param prices          what the operator pays per model ({@link PriceTable}; each reply's cost is recorded with its
 *                        usage); null for none. Not used by a server of a caller's runtime
 */
public record ServerConfig(String store, String host, int port, Limits limits, Path workspace, Duration shutdownGrace,
                           Duration heartbeat, Duration leaseWait, Duration leaseLinger, ModelResolver models, List<Skill> skills,
                           SessionConfig sessionDefaults, boolean logContent, String metricsToken, RetentionPolicy retention,
                           Map<String, String> telemetry, PriceTable prices) {

    /** @throws IllegalArgumentException when the port is outside 0-65535, or the metrics token is empty or not printable ASCII */
    public ServerConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(leaseWait, "leaseWait");
        Objects.requireNonNull(leaseLinger, "leaseLinger");
        skills = skills == null ? List.of() : List.copyOf(skills);
        sessionDefaults = sessionDefaults == null ? SessionConfig.DEFAULT : sessionDefaults;
        retention = retention == null ? RetentionPolicy.DEFAULT : retention;
        telemetry = telemetry == null ? Map.of() : Map.copyOf(telemetry);
        prices = prices == null ? PriceTable.NONE : prices;
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, was " + port);
        }
        if (metricsToken != null && (metricsToken.isEmpty() || !metricsToken.chars().allMatch(c -> c > 0x20 && c < 0x7F))) {
            throw new IllegalArgumentException("the metrics token must be printable ASCII without spaces, and not empty");
        }
    }

    /** The store at {@code storeUrl}; loopback, port 8080, default limits, no file skills, 10 s grace, 15 s heartbeats, 30 s lease wait. */
    public static ServerConfig ofStore(String storeUrl) {
        return new ServerConfig(storeUrl, "127.0.0.1", 8080, Limits.DEFAULT, null, Duration.ofSeconds(10), Duration.ofSeconds(15),
                Duration.ofSeconds(30), Duration.ZERO, null, List.of(), SessionConfig.DEFAULT, false, null, RetentionPolicy.DEFAULT, Map.of(),
                PriceTable.NONE);
    }

    /** Like {@link #ofStore} for the SQLite file {@code db} ({@code sqlite:db}). */
    public static ServerConfig of(Path db) {
        return ofStore("sqlite:" + db);
    }

    /**
     * A builder grouped by concern, starting from {@link #ofStore}'s defaults:
     *
     * <pre>{@code
     * ServerConfig config = ServerConfig.builder("postgresql://tl@db/threadline")
     *         .http(http -> http.host("0.0.0.0").port(8080).heartbeat(Duration.ofSeconds(10)))
     *         .sessions(s -> s.defaults(SessionConfig.DEFAULT.withModel("claude-sonnet-4-5")).workspace(files))
     *         .leases(l -> l.linger(Duration.ofMillis(50)))
     *         .observability(o -> o.metricsToken(token))
     *         .build();
     * }</pre>
     */
    public static ServerConfigBuilder builder(String storeUrl) {
        return ofStore(storeUrl).toBuilder();
    }

    /** A builder that starts from this config's settings. */
    public ServerConfigBuilder toBuilder() {
        return new ServerConfigBuilder(this);
    }

    /** A copy with another {@code store}. */
    public ServerConfig withStore(String store) {
        return toBuilder().store(store).build();
    }

    /** A copy with another {@code host}. */
    public ServerConfig withHost(String host) {
        return toBuilder().http(h -> h.host(host)).build();
    }

    /** A copy with another {@code port}. */
    public ServerConfig withPort(int port) {
        return toBuilder().http(h -> h.port(port)).build();
    }

    /** A copy with another {@code limits}. */
    public ServerConfig withLimits(Limits limits) {
        return toBuilder().limits(limits).build();
    }

    /** A copy with another {@code workspace}. */
    public ServerConfig withWorkspace(Path workspace) {
        return toBuilder().sessions(s -> s.workspace(workspace)).build();
    }

    /** A copy with another {@code shutdownGrace}. */
    public ServerConfig withShutdownGrace(Duration grace) {
        return toBuilder().http(h -> h.shutdownGrace(grace)).build();
    }

    /** A copy with another {@code leaseWait}. */
    public ServerConfig withLeaseWait(Duration wait) {
        return toBuilder().leases(l -> l.waitFor(wait)).build();
    }

    /** A copy with another {@code leaseLinger}. */
    public ServerConfig withLeaseLinger(Duration linger) {
        return toBuilder().leases(l -> l.linger(linger)).build();
    }

    /** A copy with another {@code models}. */
    public ServerConfig withModels(ModelResolver models) {
        return toBuilder().sessions(s -> s.models(models)).build();
    }

    /** A copy with another {@code skills}. */
    public ServerConfig withSkills(List<Skill> skills) {
        return toBuilder().sessions(s -> s.skills(skills)).build();
    }

    /** A copy with another {@code heartbeat}. */
    public ServerConfig withHeartbeat(Duration heartbeat) {
        return toBuilder().http(h -> h.heartbeat(heartbeat)).build();
    }

    /** A copy with another {@code sessionDefaults}. */
    public ServerConfig withSessionDefaults(SessionConfig defaults) {
        return toBuilder().sessions(s -> s.defaults(defaults)).build();
    }

    /** A copy with another {@code logContent}. */
    public ServerConfig withLogContent(boolean logContent) {
        return toBuilder().observability(o -> o.logContent(logContent)).build();
    }

    /** A copy with another {@code metricsToken} (null for an open {@code /metrics}). */
    public ServerConfig withMetricsToken(String metricsToken) {
        return toBuilder().observability(o -> o.metricsToken(metricsToken)).build();
    }

    /** A copy with another {@code retention}. */
    public ServerConfig withRetention(RetentionPolicy retention) {
        return toBuilder().sessions(s -> s.retention(retention)).build();
    }

    /** A copy with other {@code telemetry} settings ({@code OTEL_*} names). */
    public ServerConfig withTelemetry(Map<String, String> telemetry) {
        return toBuilder().observability(o -> o.telemetry(telemetry)).build();
    }

    /** A copy with another price table. */
    public ServerConfig withPrices(PriceTable prices) {
        return toBuilder().sessions(s -> s.prices(prices)).build();
    }

    /** The settings, with the store's password, the metrics token and the telemetry values (they may hold headers) left out. */
    @Override
    public String toString() {
        return "ServerConfig[store=" + dev.threadline.core.store.StateStores.redact(store) + ", host=" + host + ", port=" + port
                + ", limits=" + limits + ", workspace=" + workspace + ", shutdownGrace=" + shutdownGrace + ", heartbeat=" + heartbeat
                + ", leaseWait=" + leaseWait + ", leaseLinger=" + leaseLinger + ", models=" + models + ", skills=" + skills
                + ", sessionDefaults=" + sessionDefaults + ", logContent=" + logContent
                + ", metricsToken=" + (metricsToken == null ? "none" : "(set)") + ", retention=" + retention + ", telemetry=" + new java.util.TreeSet<>(telemetry.keySet()) + ", prices=" + prices.prices().size() + " models]";
    }
}
