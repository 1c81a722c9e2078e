package dev.threadline.server;

import dev.threadline.server.http.Problems;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;

/** 405 Method Not Allowed, with the {@code Allow} header, for a path some route serves with other methods. Stateless. */
final class AllowedMethods {
    private AllowedMethods() {}

    /**
     * Answers 405 with an {@code Allow} header (RFC 9110 §15.5.6) when no route matched the request but
     * some route has its path with other methods; false, answering nothing, when no route has the path.
     */
    static boolean answer405(Context ctx, Api api) {
        java.util.Set<String> methods = new java.util.TreeSet<>();
        for (String route : api.routes) {
            String[] mp = route.split(" ", 2);
            if (templateMatches(mp[1], ctx.path())) {
                methods.add(mp[0]);
            }
        }
        if (methods.isEmpty() || methods.contains(ctx.method().name())) {
            return false;
        }
        ctx.header("Allow", String.join(", ", methods));
        ThreadlineServer.problem(ctx, api.metrics, Problems.of(new HttpResponseException(405, "")));
        return true;
    }

    /** Whether {@code path} fits a Javalin route template: a {@code {param}} is one segment, a {@code <param>} any rest. */
    private static boolean templateMatches(String template, String path) {
        String[] t = template.split("/", -1);
        String[] p = path.split("/", -1);
        for (int i = 0; i < t.length; i++) {
            if (t[i].startsWith("<") && t[i].endsWith(">")) {
                return i < p.length;
            }
            if (i >= p.length || !(t[i].startsWith("{") && t[i].endsWith("}") ? !p[i].isEmpty() : t[i].equals(p[i]))) {
                return false;
            }
        }
        return t.length == p.length;
    }
}
