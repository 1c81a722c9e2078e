package dev.threadline.mcp;

import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;

/** Wording of what went wrong in a call to an MCP server. Stateless. */
final class Calls {
    private Calls() {}

    /** {@code call}, failing at once with "the server's process exited" when {@code gone} completes first. */
    static <T> Mono<T> unlessGone(Mono<T> call, Mono<Void> gone, String server) {
        return Mono.firstWithSignal(call, gone.then(Mono.error(() ->
                new IllegalStateException("the server's process exited (MCP server '" + server + "')"))));
    }

    /** True when {@code e} (or a cause) is a timeout. */
    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The innermost message of {@code e}'s causes, or its type when none has one. */
    static String reason(Throwable e) {
        String reason = e.getClass().getSimpleName();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                reason = t.getMessage();
            }
        }
        return reason;
    }
}
