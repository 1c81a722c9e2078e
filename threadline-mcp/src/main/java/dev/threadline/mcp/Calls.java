package dev.threadline.mcp;

import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/** Wording of what went wrong in a call to an MCP server. Stateless. */
final class Calls {
    private Calls() {}

    /**
     * {@code call}, failing at once with "the server's process exited" when {@code gone} completes first,
     * or with {@code gone}'s error (the process could not be started) when it fails first.
     */
    static <T> Mono<T> unlessGone(Mono<T> call, Mono<Void> gone, String server) {
        return Mono.firstWithSignal(call, gone.then(Mono.error(() ->
                new IllegalStateException("the server's process exited (MCP server '" + server + "')"))));
    }

    /**
     * Why a process could not be started, from the {@link java.io.IOException} of
     * {@link ProcessBuilder#start} among {@code e}'s causes: the system's reason ("No such file or
     * directory", "Permission denied") without the JDK's wrapping, or the innermost message.
     */
    static String startFailure(Throwable e) {
        String reason = reason(e).strip();
        Matcher m = SYSTEM_REASON.matcher(reason);
        return m.find() ? m.group(1).strip() : reason;
    }

    /** The JDK's wordings of a failed exec: "error=2, No such file or directory" or "error: 2 (No such file or directory)". */
    private static final Pattern SYSTEM_REASON = Pattern.compile("error[=:] ?\\d+(?:, | \\()(.+?)\\)?$");

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
