package dev.threadline.cli;

import java.util.Map;

/**
 * The log levels the {@code threadline} command gives the libraries it ships (slf4j-simple reads them
 * from system properties when each logger is made, so they are set before any is). A healthy run prints
 * nothing of theirs, and a client cannot make {@code serve} log a line per request; a real failure still
 * reaches the user, as the command's one-line error or as the library's own ERROR. Each level is a
 * default: a {@code -Dorg.slf4j.simpleLogger.log.NAME=LEVEL} given to the JVM wins. Stateless.
 */
final class LogLevels {
    /** Logger name (a prefix covers its children) to level, and why. */
    private static final Map<String, String> DEFAULTS = Map.of(
            // INFO at every pool start and shutdown, also around a refused connection: the error says it all
            "com.zaxxer.hikari", "warn",
            // INFO "MCP server starting.", the server's instructions at initialisation
            "io.modelcontextprotocol", "warn",
            // WARN "Process terminated with code 143" at /exit: the SIGTERM is Threadline's own close
            "io.modelcontextprotocol.client.transport.StdioClientTransport", "error",
            // WARN "Abruptly terminating exchange" when a server that failed to start is closed mid-initialisation
            "io.modelcontextprotocol.spec.McpClientSession", "error",
            // Jetty and Javalin log every start at INFO; a healthy server says only what `serve` prints
            "org.eclipse.jetty", "warn",
            // WARN per request with duplicate Host headers or another header a client got wrong: the client is answered 400
            "org.eclipse.jetty.http.HttpParser", "error",
            // WARN "Bad Authority" per CONNECT (or absolute URI) with a malformed authority: answered 400
            "org.eclipse.jetty.util.HostPort", "error",
            // WARN per body over the limit (answered 413) and per SSE write after the client left;
            // a handler's failure is an ERROR, and Threadline logs its own storage and unexpected failures
            "io.javalin", "error");

    private LogLevels() {}

    /** Sets each default level that the JVM's options do not set already. */
    static void apply() {
        DEFAULTS.forEach((name, level) -> {
            String key = "org.slf4j.simpleLogger.log." + name;
            if (System.getProperty(key) == null) {
                System.setProperty(key, level);
            }
        });
    }
}
