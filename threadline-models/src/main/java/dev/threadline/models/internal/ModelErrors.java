package dev.threadline.models.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelException.Kind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.regex.Pattern;

/**
 * Turns what a provider answered (an HTTP status and error body, an error event in a stream, an I/O
 * failure) into a {@link ModelException} whose kind, retryability and message say what happened and
 * what to do. Both providers use it, so they fail alike. Never puts an API key in a message.
 * Stateless: safe from any thread.
 */
public final class ModelErrors {
    /** What providers say when the prompt does not fit (Anthropic, OpenAI, vLLM, llama.cpp, Ollama). */
    private static final Pattern CONTEXT_TOO_LONG = Pattern.compile(
            "prompt is too long|context_length_exceeded|maximum context length|context window|exceeds the context"
                    + "|too many tokens|exceed_context_size|context size|input is too long|request_too_large",
            Pattern.CASE_INSENSITIVE);
    private static final int MAX_DETAIL = 300;

    private ModelErrors() {}

    /** The kind of failure a non-2xx HTTP answer means. */
    public static Kind kindOf(int status, String body) {
        String b = body == null ? "" : body;
        if (status == 401 || status == 403) {
            return Kind.AUTH;
        }
        if (status == 404) {
            return Kind.NOT_FOUND;
        }
        if ((status == 400 || status == 413 || status == 422) && CONTEXT_TOO_LONG.matcher(b).find()) {
            return Kind.CONTEXT_TOO_LONG;
        }
        if (status == 429) {
            return Kind.RATE_LIMITED;
        }
        if (status == 529 || status == 503 || "overloaded_error".equals(errorType(b))) {
            return Kind.OVERLOADED;
        }
        if (status == 408) {
            return Kind.TIMEOUT;
        }
        return status >= 500 ? Kind.SERVER : Kind.BAD_REQUEST;
    }

    /** Whether trying again may help with a failure of this kind. */
    public static boolean retryable(Kind kind) {
        return switch (kind) {
            case RATE_LIMITED, OVERLOADED, SERVER, NETWORK, TIMEOUT -> true;
            default -> false;
        };
    }

    /** The error for a non-2xx HTTP answer. */
    public static ModelException ofStatus(Endpoint e, int status, String body) {
        String detail = detail(body);
        String what = e.displayName() + " answered HTTP " + status + (detail.isEmpty() ? "" : ": " + detail);
        Kind kind = kindOf(status, body);
        String message = switch (kind) {
            case AUTH -> "bad API key: " + e.displayName() + (status == 401 ? " refused it" : " says it may not use this model or endpoint")
                    + " (HTTP " + status + (detail.isEmpty() ? "" : ": " + detail) + "); set " + e.keyEnv()
                    + " to a valid key for " + e.baseUrl() + ".";
            case NOT_FOUND -> "model '" + e.model() + "' was not found at " + e.baseUrl() + " (HTTP 404" + (detail.isEmpty() ? "" : ": "
                    + detail) + "). Check the model name (--model " + e.provider() + ":NAME) and the base URL.";
            case CONTEXT_TOO_LONG -> contextTooLong(e, what);
            case RATE_LIMITED -> what + ". Rate limited: wait and try again, or lower the request rate.";
            case OVERLOADED -> what + ". The service is overloaded: try again shortly.";
            case TIMEOUT -> what + ". The request timed out at the server: try again.";
            case SERVER -> what + ". A server error: try again; if it persists, check the provider's status.";
            default -> what + ". The request was refused; this is not retried.";
        };
        return new ModelException(message, kind, retryable(kind));
    }

    /** The error for an {@code error} event inside a stream (Anthropic's {@code {"type":"error","error":{...}}}). */
    public static ModelException ofStreamError(Endpoint e, JsonNode error) {
        String type = error.path("type").asText("");
        String message = error.path("message").asText(error.toString());
        String what = e.displayName() + " reported an error in the stream: " + type + ": " + truncate(message);
        return switch (type) {
            case "overloaded_error" -> new ModelException(what + ". The service is overloaded: try again shortly.", Kind.OVERLOADED, true);
            case "rate_limit_error" -> new ModelException(what + ". Rate limited: wait and try again.", Kind.RATE_LIMITED, true);
            case "api_error" -> new ModelException(what + ". A server error: try again.", Kind.SERVER, true);
            case "authentication_error", "permission_error" ->
                    new ModelException(what + ". Bad API key: set " + e.keyEnv() + ".", Kind.AUTH, false);
            case "not_found_error" -> new ModelException(what + ". Check the model name '" + e.model() + "'.", Kind.NOT_FOUND, false);
            default -> CONTEXT_TOO_LONG.matcher(message + " " + type).find()
                    ? new ModelException(contextTooLong(e, what), Kind.CONTEXT_TOO_LONG, false)
                    : new ModelException(what + ".", Kind.BAD_REQUEST, false);
        };
    }

    /** The error for a failed connection or a timeout (or a read that an interrupt ended). */
    public static ModelException ofIo(Endpoint e, IOException io) {
        if (Thread.currentThread().isInterrupted()) {
            return new ModelException("the call to " + e.spec() + " was cancelled (the thread was interrupted)",
                    Kind.CANCELLED, false, io);
        }
        if (io instanceof HttpTimeoutException) {
            return new ModelException(e.displayName() + " did not answer in time (" + io.getMessage() + " at " + e.baseUrl()
                    + "). Try again, or raise the request timeout.", Kind.TIMEOUT, true, io);
        }
        String what = io instanceof ConnectException && io.getMessage() == null ? "connection refused"
                : io.getClass().getSimpleName() + (io.getMessage() == null ? "" : ": " + io.getMessage());
        String hint = io instanceof ConnectException ? "is the server running and the base URL right?" : "check the network";
        return new ModelException("could not talk to " + e.displayName() + " at " + e.baseUrl() + " (" + what + "); " + hint,
                Kind.NETWORK, true, io);
    }

    private static String contextTooLong(Endpoint e, String what) {
        return what + ". The conversation is too long for " + e.model()
                + "'s context window: compact or clear the context (/clear), or use a model with a larger window.";
    }

    /** The provider's own error message: {@code error.message}, {@code error} as text, or the body itself. */
    static String detail(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonNode root = Json.mapper().readTree(body);
            JsonNode error = root.path("error");
            String message = error.isTextual() ? error.asText() : error.path("message").asText(root.path("message").asText(""));
            return truncate(message.isEmpty() ? body.strip() : message);
        } catch (IOException | RuntimeException notJson) {
            return truncate(body.strip());
        }
    }

    private static String errorType(String body) {
        try {
            return body == null ? "" : Json.mapper().readTree(body).path("error").path("type").asText("");
        } catch (IOException | RuntimeException notJson) {
            return "";
        }
    }

    private static String truncate(String s) {
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() <= MAX_DETAIL ? one : one.substring(0, MAX_DETAIL - 3) + "...";
    }
}
