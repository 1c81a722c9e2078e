package dev.threadline.server;

import dev.threadline.server.http.Idempotency;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.Threadline;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.JsonBody;
import dev.threadline.server.keys.KeyStore;
import io.javalin.http.Context;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every route needs: the runtime, the caller's tenant (set by the server's {@link dev.threadline.server.http.KeyAuth}), the session a
 * path names, the Idempotency-Key as command options, the limits and meters. Thread-safe.
 */
final class Api {
    static final String TENANT = "threadline.tenant";
    /** The largest seq a request may name (2^53: exact in every JSON reader). */
    static final long MAX_SEQ = 1L << 53;

    final Threadline runtime;
    final KeyStore keys;
    /** The webhooks of the server's store, or null for a caller's runtime or a memory store. */
    final dev.threadline.server.webhooks.Webhooks webhooks;
    final ServerConfig config;
    final ServerMetrics metrics;
    final TurnLimit turnLimit;
    final SseStreams streams;
    final AtomicBoolean closing = new AtomicBoolean();
    final InFlight inFlight = new InFlight();
    final SessionCounts sessionCounts;
    final java.util.List<String> routes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, Tenant> tenants = new ConcurrentHashMap<>();
    /** Takes the listeners {@link #tenantView} added off their views again (for a runtime the server does not own). */
    private final java.util.Queue<Runnable> detach = new java.util.concurrent.ConcurrentLinkedQueue<>();

    Api(Threadline runtime, KeyStore keys, dev.threadline.server.webhooks.Webhooks webhooks, ServerConfig config, ServerMetrics metrics) {
        this.runtime = runtime;
        this.keys = keys;
        this.webhooks = webhooks;
        this.config = config;
        this.metrics = metrics;
        this.turnLimit = new TurnLimit(metrics, config.limits().maxEventsPerTurn());
        metrics.observe(runtime.live()); // one registry for the runtime: every tenant view shares it
        this.streams = new SseStreams(metrics, config.limits().maxSseStreamsPerTenant());
        this.sessionCounts = new SessionCounts(config.limits().maxSessionsPerTenant());
    }

    /** The view of a tenant; the first use also adds the commit counters (metrics, events per turn) to it. */
    Tenant tenantView(String id) {
        return tenants.computeIfAbsent(id, t -> {
            Tenant view = runtime.tenant(t);
            for (dev.threadline.core.runtime.EventListener l : java.util.List.of(metrics.commitCounter(t), turnLimit.eventCounter(t))) {
                view.addListener(l);
                detach.add(() -> view.removeListener(l));
            }
            return view;
        });
    }

    /** Removes the listeners this server added to the runtime's tenants, which outlives the server when it is the caller's. */
    void detachListeners() {
        for (Runnable r; (r = detach.poll()) != null; ) {
            r.run();
        }
    }

    /** The caller's tenant. */
    Tenant tenant(Context ctx) {
        Tenant t = ctx.attribute(TENANT);
        if (t == null) {
            throw new ApiException(401, "unauthorized", "Authorization", "send Authorization: Bearer <key>");
        }
        return t;
    }

    /** The session named by the path's {@code {id}}; 404 when the caller's tenant has none (or the id cannot be one). */
    Session session(Context ctx) {
        String id = ctx.pathParam("id");
        try {
            SessionInfo.checkId(id, "id");
        } catch (InvalidInputException e) {
            throw ApiException.noSession();
        }
        return tenant(ctx).find(id).orElseThrow(ApiException::noSession);
    }

    /** The command options of a POST: its Idempotency-Key as the command id, when sent. */
    CommandOptions options(Context ctx) {
        return Idempotency.options(ctx); // one rule for /v1 and the compatible surfaces
    }

    /** {@code options} with a command id: the caller's Idempotency-Key, or a new one (a turn is followed by its command id). */
    static CommandOptions withCommandId(CommandOptions options) {
        return options.commandId().isPresent() ? options
                : options.toBuilder().commandId("http-" + java.util.UUID.randomUUID()).build();
    }

    /** The request body as a JSON object with only {@code allowed} fields. */
    JsonBody body(Context ctx, Set<String> allowed) {
        return JsonBody.parse(ctx.bodyAsBytes(), allowed);
    }

    /** Answers {@code value} as JSON with {@code status}. */
    static void send(Context ctx, int status, Object value) {
        ctx.status(status).contentType(dev.threadline.server.http.Utf8Only.JSON).result(Json.write(value) + "\n"); // curl-friendly
    }

    Limits limits() {
        return config.limits();
    }
}
