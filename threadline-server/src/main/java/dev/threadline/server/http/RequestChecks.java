package dev.threadline.server.http;

import io.javalin.http.Context;

/**
 * Checks every request passes before a route reads it, so that what the server cannot parse is a 400
 * problem here, in one place, rather than a failure deep in a route. Stateless.
 */
public final class RequestChecks {
    private RequestChecks() {}

    /**
     * Refuses a request whose path or query holds a {@code %} that does not start a two-hex-digit
     * escape ({@code %u002e}, a cut-off {@code %4}): Jetty lets them through, and the route's reading
     * of its ids or query parameters would fail on them. A before-handler.
     *
     * @throws ApiException 400 naming the path or query
     */
    public static void escapes(Context ctx) {
        if (!wellEscaped(ctx.req().getRequestURI())) {
            throw new ApiException(400, "bad-request", "path",
                    "the path holds a % that is not a percent-escape of two hex digits (such as %2F)");
        }
        if (!wellEscaped(ctx.req().getQueryString())) {
            throw new ApiException(400, "bad-request", "query",
                    "the query holds a % that is not a percent-escape of two hex digits (such as %2F)");
        }
    }

    static boolean wellEscaped(String raw) {
        if (raw == null) {
            return true;
        }
        for (int i = raw.indexOf('%'); i >= 0; i = raw.indexOf('%', i + 3)) {
            if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0 || Character.digit(raw.charAt(i + 2), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
