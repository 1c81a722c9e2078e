package dev.threadline.server.compat;

import dev.threadline.core.runtime.Tenant;
import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.KeyAuth;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.List;

/**
 * The gate in front of a compatible surface: the API key (from the headers the surface's SDK sends)
 * names the caller's tenant, checked by {@link KeyAuth} as on {@code /v1}; a refusal (401, or 503 while
 * the server shuts down) is answered in the surfaces' error shape. Stateless.
 */
public final class Gate {
    private static final String TENANT = "threadline.compat.tenant";

    private Gate() {}

    /**
     * A before-handler that reads the key from {@code headers}, in order (a header named
     * {@code Authorization} carries {@code Bearer <key>}; any other carries the key itself), with the
     * server's one key check ({@link KeyAuth}), and answers a refusal in the surfaces' error shape.
     */
    public static Handler of(Host host, List<String> headers) {
        KeyAuth auth = new KeyAuth(headers, host::closing, host::tenantOfKey, "send a valid Threadline API key as " + headers);
        return ctx -> {
            try {
                ctx.attribute(TENANT, auth.authenticate(ctx));
            } catch (ApiException e) {
                Errors.write(ctx, e);
                ctx.skipRemainingHandlers();
            }
        };
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
