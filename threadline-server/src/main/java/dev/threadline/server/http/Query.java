package dev.threadline.server.http;

import io.javalin.http.Context;

/** Reads query parameters with their types checked; a refusal is a 400 naming the parameter. Stateless. */
public final class Query {
    private Query() {}

    /** Refuses any query parameter but {@code allowed} (a typo is never silently ignored). */
    public static void only(Context ctx, String... allowed) {
        java.util.Set<String> known = java.util.Set.of(allowed);
        for (String name : ctx.queryParamMap().keySet()) {
            if (!known.contains(name)) {
                throw ApiException.invalid(Problems.clip(name), known.isEmpty() ? "this endpoint takes no query parameters"
                        : "unknown parameter; this endpoint takes " + java.util.List.of(allowed));
            }
        }
    }

    /** A whole-number parameter within {@code min..max}, or {@code fallback} when absent. */
    public static long integer(Context ctx, String name, long min, long max, long fallback) {
        String v = ctx.queryParam(name);
        if (v == null) {
            return fallback;
        }
        return parse(name, v, min, max);
    }

    /** A whole number within {@code min..max} read from {@code text}; a 400 naming {@code field} otherwise. */
    public static long parse(String field, String text, long min, long max) {
        long n;
        try {
            n = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw ApiException.invalid(field, "must be a whole number from " + min + " to " + max);
        }
        if (n < min || n > max) {
            throw ApiException.invalid(field, "must be a whole number from " + min + " to " + max);
        }
        return n;
    }

    /** A text parameter of at most {@code maxChars} (no NUL), or null when absent. */
    public static String text(Context ctx, String name, int maxChars) {
        String v = ctx.queryParam(name);
        return v == null ? null : JsonBody.checked(name, v, maxChars);
    }
}
