package dev.threadline.server.http;

import dev.threadline.core.error.CommandConflictException;
import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.LeaseHeldException;
import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.SessionBusyException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.UndoneEffectsException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.llm.ModelException;
import io.javalin.http.HttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps every error to its problem document: the core's exceptions by type (architecture §7), the
 * server's own {@link ApiException}s, Javalin's (unknown route, body too large) and Jetty's refusals of a
 * body it cannot parse (a bad chunk size, an early end), which are the client's fault. Anything else is
 * a 500 whose detail says nothing of the cause (which is logged, without request content). Stateless.
 */
public final class Problems {
    private static final Logger LOG = LoggerFactory.getLogger(Problems.class);
    private static final int MAX_DETAIL = 500;

    private Problems() {}

    /** The problem for {@code error}. */
    public static Problem of(Throwable error) {
        return switch (error) {
            case ApiException e -> Problem.of(e.status(), e.type(), clip(e.getMessage()), e.field());
            case InvalidInputException e -> Problem.of(400, "invalid-input", clip(e.getMessage()), e.field());
            case SessionNotFoundException e -> Problems.of(ApiException.noSession());
            case SessionExistsException e -> Problem.of(409, "session-exists", clip(e.getMessage()), "id");
            case CommandConflictException e -> Problem.of(422, "idempotency-key-reused", clip(e.getMessage()), "Idempotency-Key");
            case LeaseHeldException e -> Problem.of(409, "session-busy", clip(e.getMessage()), null);
            case dev.threadline.core.error.LegalHoldException e -> Problem.of(409, "legal-hold", clip(e.getMessage()), null);
            case dev.threadline.core.error.HistoryPrunedException e -> Problem.of(410, "history-pruned", clip(e.getMessage()), "seq");
            case SessionBusyException e -> Problem.of(409, "session-busy", clip(e.getMessage()), "strategy");
            case UndoneEffectsException e -> Problem.of(409, "undone-effects", clip(e.getMessage()), "acknowledgeEffects");
            case LeaseLostException e -> Problem.of(409, "session-taken-over", clip(e.getMessage()), null);
            case VersionConflictException e -> Problem.of(409, "version-conflict", clip(e.getMessage()), null);
            case InvalidEventException e -> Problem.of(409, "refused-by-state", clip(e.getMessage()), null);
            case ModelException e -> Problem.of(502, "model-failed", clip(e.getMessage()), null);
            case StorageException e -> {
                LOG.error("storage failure: {} at {}", e.getClass().getName(), where(e));
                yield Problem.of(503, "storage-unavailable", "the store failed; the operation was not applied, retry later", null);
            }
            case HttpResponseException e -> fromJavalin(e);
            case org.eclipse.jetty.http.HttpException e when e.getCode() == 400 ->
                    Problem.of(400, "bad-request", "the request body could not be read (a malformed chunked encoding, or an early end)", "body");
            case org.eclipse.jetty.http.HttpException e when e.getCode() > 400 && e.getCode() < 500 ->
                    fromJavalin(new HttpResponseException(e.getCode(), ""));
            case org.eclipse.jetty.io.EofException e ->
                    Problem.of(400, "bad-request", "the request body ended before its declared length", "body");
            default -> {
                LOG.error("unexpected failure: {} at {}", error.getClass().getName(), where(error));
                yield Problem.of(500, "internal-error", "the server failed; nothing was changed by this request", null);
            }
        };
    }

    private static Problem fromJavalin(HttpResponseException e) {
        return switch (e.getStatus()) {
            case 404 -> Problem.of(404, "not-found", "no such route; see /openapi.json", null);
            case 405 -> Problem.of(405, "method-not-allowed", "this route does not take that method; see /openapi.json", null);
            case 413 -> Problem.of(413, "body-too-large", "the request body is over the server's limit", "body");
            case 414, 431 -> Problem.of(e.getStatus(), "request-too-large", "the request line or headers are over the limit", null);
            case 400 -> Problem.of(400, "bad-request", "the request is malformed", null);
            default -> Problem.of(e.getStatus(), e.getStatus() >= 500 ? "internal-error" : "bad-request",
                    e.getStatus() >= 500 ? "the server failed" : "the request was refused", null);
        };
    }

    /**
     * Where an error was raised and the chain of its causes, by class and frame only: exception messages
     * may quote request content (a JSON parser's snippet, a store's row), and logs never do.
     */
    static String where(Throwable error) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = error; t != null && b.length() < 2000; t = t.getCause()) {
            if (t != error) {
                b.append(" <- caused by ").append(t.getClass().getName()).append(" at ");
            }
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(3, frames.length); i++) {
                b.append(i == 0 ? "" : " < ").append(frames[i]);
            }
        }
        return b.toString();
    }

    /** Long details (a 10,000-character id echoed back) are cut. */
    static String clip(String detail) {
        if (detail == null) {
            return null;
        }
        return detail.length() <= MAX_DETAIL ? detail : detail.substring(0, MAX_DETAIL) + "…";
    }
}
