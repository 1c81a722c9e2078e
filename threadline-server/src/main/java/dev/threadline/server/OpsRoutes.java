package dev.threadline.server;

import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.SessionFilter;
import dev.threadline.server.http.ApiException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;

/**
 * The unauthenticated operations routes: {@code /health} (the process answers), {@code /ready} (it
 * serves: not shutting down and the store answers a read), {@code /metrics} (Prometheus text; route
 * templates and counts only, no tenant data; behind {@code Authorization: Bearer TOKEN} when
 * {@link ServerConfig#metricsToken} is set) and {@code /openapi.json}.
 */
final class OpsRoutes {
    private final Api api;
    private final byte[] openapi;

    OpsRoutes(Api api) {
        this.api = api;
        try (InputStream in = OpsRoutes.class.getResourceAsStream("openapi.json")) {
            this.openapi = in.readAllBytes();
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the OpenAPI document is missing from the server's jar", e);
        }
    }

    void register(RoutesConfig r) {
        r.get("/health", ctx -> Api.send(ctx, 200, Json.object().put("status", "ok")));
        r.get("/ready", this::ready);
        r.get("/metrics", ctx -> {
            checkMetricsToken(ctx);
            ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(api.metrics.scrape());
        });
        r.get("/openapi.json", ctx -> ctx.contentType(dev.threadline.server.http.Utf8Only.JSON).result(openapi));
    }

    /** A 401 unless the request carries the configured metrics token (compared in constant time); nothing when none is set. */
    private void checkMetricsToken(Context ctx) {
        String token = api.config.metricsToken();
        if (token == null) {
            return;
        }
        String header = ctx.header("Authorization");
        String sent = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).strip() : "";
        if (!java.security.MessageDigest.isEqual(sent.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                token.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"threadline-metrics\"");
            throw new ApiException(401, "unauthorized", "Authorization",
                    "send the metrics token this server was configured with as Authorization: Bearer <token>");
        }
    }

    private void ready(Context ctx) {
        if (api.closing.get()) {
            throw new ApiException(503, "shutting-down", null, "the server is shutting down");
        }
        api.runtime.defaultTenant().sessions(new SessionFilter(null, null, 1, null)); // the store answers
        Api.send(ctx, 200, Json.object().put("status", "ready"));
    }

}
