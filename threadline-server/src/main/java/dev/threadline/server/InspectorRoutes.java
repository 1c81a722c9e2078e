package dev.threadline.server;

import io.javalin.config.JavalinConfig;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import java.util.Map;

/**
 * The web inspector at {@code /ui}: plain static files (HTML, ES modules, CSS) from the jar's
 * {@code inspector/} folder, with no build step and nothing loaded from elsewhere. The pages are a
 * client of the public {@code /v1} API only: the visitor types an API key, which the page keeps in the
 * browser's session storage and sends as {@code Authorization: Bearer}, so the inspector sees exactly
 * what that key's tenant may see. The files themselves are public (they hold no data), like
 * {@code /openapi.json}. Stateless.
 */
final class InspectorRoutes {
    /** Where the inspector is served. */
    static final String PATH = "/ui";

    /** Same-origin everything: no inline script, no CDN, no framing. */
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private InspectorRoutes() {}

    /** Adds the inspector's files and the redirect from {@code /ui} to {@code /ui/} to {@code cfg}. */
    static void mount(JavalinConfig cfg) {
        cfg.staticFiles.add(files -> {
            files.hostedPath = PATH;
            files.directory = "/inspector";
            files.location = Location.CLASSPATH;
            files.mimeTypes.add("text/html;charset=utf-8", "html"); // every answer says its charset, UTF-8
            files.mimeTypes.add("text/javascript;charset=utf-8", "js");
            files.mimeTypes.add("text/css;charset=utf-8", "css");
            // revalidated on each load, so a new server version is never mixed with cached modules of the old one
            files.headers = Map.of("Cache-Control", "no-cache", "Content-Security-Policy", CSP,
                    "X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer");
        });
        // relative module URLs resolve against /ui/, so /ui itself (a before-handler: not an API route) redirects there
        cfg.routes.before(PATH, ctx -> {
            if (ctx.path().equals(PATH)) {
                ctx.redirect(PATH + "/", HttpStatus.FOUND);
            }
        });
    }
}
