package dev.threadline.server;

import dev.threadline.server.http.ApiException;
import io.javalin.http.Context;

/**
 * The gate in front of {@code /v1}: the bearer key names the caller's tenant, and a server that is
 * shutting down refuses new work. A missing, malformed, unknown or revoked key is a 401 that says
 * nothing about which of those it was.
 */
final class Auth {
    private static final String BEARER = "Bearer ";

    private final Api api;

    Auth(Api api) {
        this.api = api;
    }

    void check(Context ctx) {
        if (api.closing.get()) {
            ctx.header("Retry-After", "5");
            throw new ApiException(503, "shutting-down", null, "the server is shutting down; retry on another node");
        }
        String header = ctx.header("Authorization");
        String secret = header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? header.substring(BEARER.length()).strip() : null;
        String tenant = secret == null ? null : api.keys.tenantOf(secret).orElse(null);
        if (tenant == null) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"threadline\"");
            throw new ApiException(401, "unauthorized", "Authorization", "send a valid API key as Authorization: Bearer <key>");
        }
        ctx.attribute(Api.TENANT, api.tenantView(tenant));
    }
}
