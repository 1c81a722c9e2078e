package dev.threadline.server.http;

import dev.threadline.core.runtime.Tenant;
import io.javalin.http.Context;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The one API key check of every surface ({@code /v1} and the compatible ones): the key, read from the
 * headers the surface's clients send, names the caller's tenant; a missing, malformed, unknown or
 * revoked key is a 401 that says nothing about which of those it was, and a server that is shutting
 * down refuses new work (503, {@code Retry-After: 5}). The caller answers the refusal in its surface's
 * shape ({@link ProblemWriter}). Immutable, so thread-safe.
 */
public final class KeyAuth {
    private static final String AUTHORIZATION = "Authorization";
    private static final String BEARER = "Bearer ";

    private final List<String> headers;
    private final BooleanSupplier closing;
    private final Function<String, Optional<Tenant>> tenantOfKey;
    private final String hint;

    /**
     * A check that reads the key from {@code headers}.
     *
     * @param headers     where the key is read, in order: a header named {@code Authorization} carries
     *                    {@code Bearer <key>}, any other carries the key itself; the first is named as the field at fault
     * @param closing     whether the server is shutting down
     * @param tenantOfKey the tenant view of a key's secret, or empty when the key is unknown, revoked or malformed
     * @param hint        the detail of a 401: how to send a key
     */
    public KeyAuth(List<String> headers, BooleanSupplier closing, Function<String, Optional<Tenant>> tenantOfKey, String hint) {
        this.headers = List.copyOf(headers);
        this.closing = Objects.requireNonNull(closing, "closing");
        this.tenantOfKey = Objects.requireNonNull(tenantOfKey, "tenantOfKey");
        this.hint = Objects.requireNonNull(hint, "hint");
        if (this.headers.isEmpty()) {
            throw new IllegalArgumentException("name at least one header");
        }
    }

    /**
     * The caller's tenant.
     *
     * @throws ApiException 503 when the server is shutting down, 401 when no valid key was sent (with the
     *                      {@code Retry-After} or {@code WWW-Authenticate} header set on {@code ctx})
     */
    public Tenant authenticate(Context ctx) {
        if (closing.getAsBoolean()) {
            ctx.header("Retry-After", "5");
            throw new ApiException(503, "shutting-down", null, "the server is shutting down; retry on another node");
        }
        String secret = secret(ctx);
        Tenant tenant = secret == null || secret.isEmpty() ? null : tenantOfKey.apply(secret).orElse(null);
        if (tenant == null) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"threadline\"");
            throw new ApiException(401, "unauthorized", headers.getFirst(), hint);
        }
        return tenant;
    }

    private String secret(Context ctx) {
        for (String h : headers) {
            String v = ctx.header(h);
            if (v == null) {
                continue;
            }
            String secret = !h.equalsIgnoreCase(AUTHORIZATION) ? v.strip()
                    : v.regionMatches(true, 0, BEARER, 0, BEARER.length()) ? v.substring(BEARER.length()).strip() : null;
            if (secret != null) {
                return secret;
            }
        }
        return null;
    }
}
