package dev.threadline.server.compat;

import dev.threadline.core.runtime.Tenant;
import dev.threadline.server.http.ApiException;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.List;

/**
 * The gate in front of a compatible surface: the API key (from the headers the surface's SDK sends)
 * names the caller's tenant; a missing, unknown or revoked key is a 401 that says nothing about which
 * of those it was, and a server that is shutting down refuses new work (503). Stateless.
 */
public final class Gate {
    private static final String TENANT = "threadline.compat.tenant";
    private static final String BEARER = "Bearer ";

    private Gate() {}

    /**
     * A before-handler that reads the key from {@code headers}, in order (a header named
     * {@code Authorization} carries {@code Bearer <key>}; any other carries the key itself).
     */
    public static Handler of(Host host, List<String> headers) {
        return ctx -> {
            try {
                check(ctx, host, headers);
            } catch (ApiException e) {
                Errors.write(ctx, e);
                ctx.skipRemainingHandlers();
            }
        };
    }

    private static void check(Context ctx, Host host, List<String> headers) {
        if (host.closing()) {
            ctx.header("Retry-After", "5");
            throw new ApiException(503, "shutting-down", null, "the server is shutting down; retry on another node");
        }
        String secret = null;
        for (String h : headers) {
            String v = ctx.header(h);
            if (v == null) {
                continue;
            }
            if (h.equalsIgnoreCase("Authorization")) {
                secret = v.regionMatches(true, 0, BEARER, 0, BEARER.length()) ? v.substring(BEARER.length()).strip() : null;
            } else {
                secret = v.strip();
            }
            if (secret != null) {
                break;
            }
        }
        Tenant tenant = secret == null || secret.isEmpty() ? null : host.tenantOfKey(secret).orElse(null);
        if (tenant == null) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"threadline\"");
            throw new ApiException(401, "unauthorized", headers.getFirst(), "send a valid Threadline API key as " + headers);
        }
        ctx.attribute(TENANT, tenant);
    }

    /** The caller's tenant, set by the gate. */
    public static Tenant tenant(Context ctx) {
        Tenant t = ctx.attribute(TENANT);
        if (t == null) {
            throw new ApiException(401, "unauthorized", null, "send a valid Threadline API key");
        }
        return t;
    }
}
