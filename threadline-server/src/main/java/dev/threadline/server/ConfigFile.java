package dev.threadline.server;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * The file of {@code threadline serve --config FILE}: one JSON object whose fields are those of
 * {@link ServerConfig}, all optional (docs/http-api.md shows one):
 *
 * <pre>{@code
 * {"store": "postgresql://tl:pw@db:5432/threadline", "host": "0.0.0.0", "port": 8080,
 *  "workspace": "/srv/files", "shutdownGraceSeconds": 10, "leaseWaitSeconds": 30, "leaseLingerMillis": 0,
 *  "logContent": false, "metricsToken": "…",
 *  "limits": {"maxBodyBytes": 1048576, "maxTextChars": 100000, "maxMetadataPairs": 64, "maxValueChars": 512,
 *             "maxEventsPerTurn": 2000, "maxSessionsPerTenant": 100000, "maxSseStreamsPerTenant": 200,
 *             "maxConnections": 1000, "readTimeoutMillis": 30000},
 *  "session": {"model": "scripted", "systemPrompt": "…", "requireApproval": ["calculate"], "doubleTexting": "enqueue"},
 *  "retention": {"sessionTtlSeconds": 2592000, "sweepEverySeconds": 60, "sweepLimit": 1000, "keepCheckpoints": 100,
 *                "pruneEverySeconds": 3600},
 *  "telemetry": {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SERVICE_NAME": "threadline-eu-1"},
 *  "prices": {"anthropic:claude-sonnet-4-5": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75},
 *             "openai:*": {"input": 2.5, "output": 10}}}
 * }</pre>
 *
 * {@code session} takes the fields of a create's {@code config} and is the config of sessions created
 * without one. {@code metricsToken}, when given, is the bearer token {@code /metrics} then requires
 * (absent: {@code /metrics} is open). {@code telemetry} holds OpenTelemetry settings by their {@code OTEL_*}
 * names, over the environment's (docs/operations.md, "Traces"). {@code prices} are per million tokens in the
 * operator's currency ({@link dev.threadline.core.llm.PriceTable}). An unknown field, or a value of the wrong type, is refused naming it; command-line
 * flags override the file. Stateless.
 */
public final class ConfigFile {
    private static final Set<String> TOP = Set.of("store", "host", "port", "workspace", "shutdownGraceSeconds", "leaseWaitSeconds",
            "leaseLingerMillis", "logContent", "metricsToken", "limits", "session", "retention", "telemetry",
            "prices");
    private static final Set<String> RETENTION = Set.of("sessionTtlSeconds", "sweepEverySeconds", "sweepLimit", "keepCheckpoints",
            "keepDays", "pruneEverySeconds");
    private static final Set<String> LIMITS = Set.of("maxBodyBytes", "maxTextChars", "maxMetadataPairs", "maxValueChars",
            "maxEventsPerTurn", "maxSessionsPerTenant", "maxSseStreamsPerTenant", "maxConnections", "readTimeoutMillis");

    private ConfigFile() {}

    /**
     * {@code base} with the settings of {@code file}.
     *
     * @throws InvalidInputException naming the file and the field when the file cannot be read or holds a wrong field
     */
    public static ServerConfig apply(Path file, ServerConfig base) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new InvalidInputException("--config", "cannot read " + file + ": " + e.getMessage());
        }
        try {
            return apply(JsonBody.parse(bytes, TOP), base);
        } catch (ApiException e) {
            throw new InvalidInputException(file + ": " + e.field(), e.getMessage());
        } catch (InvalidInputException e) {
            throw new InvalidInputException(file + ": " + e.field(), e.reason());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(file.toString(), e.getMessage());
        }
    }

    private static ServerConfig apply(JsonBody f, ServerConfig c) {
        String store = f.string("store", 4096);
        if (store != null) {
            c = c.withStore(store);
        }
        String host = f.string("host", 255);
        if (host != null) {
            c = c.withHost(host);
        }
        Long port = f.integer("port", 0, 65535);
        if (port != null) {
            c = c.withPort(port.intValue());
        }
        String workspace = f.string("workspace", 4096);
        if (workspace != null) {
            c = c.withWorkspace(Path.of(workspace).toAbsolutePath().normalize());
        }
        Long grace = f.integer("shutdownGraceSeconds", 0, 3600);
        if (grace != null) {
            c = c.withShutdownGrace(Duration.ofSeconds(grace));
        }
        Long wait = f.integer("leaseWaitSeconds", 0, 3600);
        if (wait != null) {
            c = c.withLeaseWait(Duration.ofSeconds(wait));
        }
        Long linger = f.integer("leaseLingerMillis", 0, 60_000);
        if (linger != null) {
            c = c.withLeaseLinger(Duration.ofMillis(linger));
        }
        c = c.withLogContent(f.bool("logContent", c.logContent()));
        String metricsToken = f.string("metricsToken", 4096);
        if (metricsToken != null) {
            c = c.withMetricsToken(metricsToken);
        }
        JsonBody l = f.object("limits", LIMITS);
        if (l != null) {
            Limits d = c.limits();
            c = c.withLimits(new Limits(
                    or(l.integer("maxBodyBytes", 1024, Integer.MAX_VALUE), d.maxBodyBytes()),
                    (int) or(l.integer("maxTextChars", 1, Integer.MAX_VALUE), d.maxTextChars()),
                    (int) or(l.integer("maxMetadataPairs", 0, 10_000), d.maxMetadataPairs()),
                    (int) or(l.integer("maxValueChars", 1, 1_000_000), d.maxValueChars()),
                    (int) or(l.integer("maxEventsPerTurn", 1, Integer.MAX_VALUE), d.maxEventsPerTurn()),
                    (int) or(l.integer("maxSessionsPerTenant", 1, Integer.MAX_VALUE), d.maxSessionsPerTenant()),
                    (int) or(l.integer("maxSseStreamsPerTenant", 1, Integer.MAX_VALUE), d.maxSseStreamsPerTenant()),
                    (int) or(l.integer("maxConnections", 1, Integer.MAX_VALUE), d.maxConnections()),
                    or(l.integer("readTimeoutMillis", 100, 3_600_000), d.readTimeoutMillis())));
        }
        JsonBody r = f.object("retention", RETENTION);
        if (r != null) {
            RetentionPolicy d = c.retention();
            Long ttl = r.integer("sessionTtlSeconds", 1, 100L * 365 * 24 * 3600);
            Long every = r.integer("sweepEverySeconds", 0, 24 * 3600);
            Long keep = r.integer("keepCheckpoints", 1, Integer.MAX_VALUE);
            Long days = r.integer("keepDays", 1, 100L * 365);
            if (keep != null && days != null) {
                throw ApiException.invalid("retention.keepDays", "give keepCheckpoints or keepDays, not both");
            }
            Long prune = r.integer("pruneEverySeconds", 1, 7L * 24 * 3600);
            c = c.withRetention(new RetentionPolicy(ttl != null ? Duration.ofSeconds(ttl) : d.sessionTtl(),
                    every != null ? Duration.ofSeconds(every) : d.sweepEvery(), (int) or(r.integer("sweepLimit", 1, 1000), d.sweepLimit()),
                    keep != null ? dev.threadline.core.runtime.PrunePolicy.keepLatest(keep.intValue())
                            : days != null ? dev.threadline.core.runtime.PrunePolicy.keepDays(days.intValue()) : d.historyKeep(),
                    prune != null ? Duration.ofSeconds(prune) : d.pruneEvery()));
        }
        com.fasterxml.jackson.databind.JsonNode t = f.value("telemetry");
        if (t != null && !t.isNull()) {
            if (!t.isObject()) {
                throw ApiException.invalid("telemetry", "must be an object of OTEL_* settings");
            }
            java.util.Map<String, String> telemetry = new java.util.LinkedHashMap<>(c.telemetry());
            for (var e : t.properties()) {
                if (!e.getKey().startsWith("OTEL_") || !e.getValue().isTextual()) {
                    throw ApiException.invalid("telemetry." + e.getKey(), "must be an OTEL_* variable's name with a string value");
                }
                telemetry.put(e.getKey(), e.getValue().asText());
            }
            c = c.withTelemetry(telemetry);
        }
        com.fasterxml.jackson.databind.JsonNode prices = f.value("prices");
        if (prices != null) {
            c = c.withPrices(dev.threadline.core.llm.PriceTable.parse(prices));
        }
        JsonBody session = f.object("session", SessionRoutes.CONFIG);
        if (session != null) {
            c = c.withSessionDefaults(SessionRoutes.config(session, c.limits(), c.sessionDefaults()));
        }
        return c;
    }

    private static long or(Long value, long fallback) {
        return value != null ? value : fallback;
    }
}
