package dev.threadline.models.internal;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelException.Kind;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.http.RetryPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;
import dev.threadline.core.log.Logs;
import org.slf4j.Logger;

/**
 * POSTs JSON to one provider with the shared retry behaviour: a retryable failure (see
 * {@link ModelErrors}) is tried again after the wait the server asked for, or after an exponential
 * backoff with jitter ({@link RetryPolicy}), up to the policy's attempts; Anthropic's
 * {@code x-should-retry} header overrides the status. Only the request before its answer starts is
 * retried: a stream that breaks halfway fails (its text has already been handed out).
 *
 * <p>Headers are never logged, so API keys never reach a log. Thread-safe: one transport serves concurrent calls.
 */
public final class HttpTransport {
    private static final Logger LOG = Logs.get(HttpTransport.class);
    private static final int MAX_ERROR_BODY = 64 * 1024;

    private final Endpoint endpoint;
    private final HttpSettings settings;

    /** A transport to {@code endpoint} with {@code settings}. */
    public HttpTransport(Endpoint endpoint, HttpSettings settings) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** The endpoint requests go to. */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** POSTs {@code json} to {@code path} and returns the 2xx response body as text. */
    public String post(String path, Map<String, String> headers, String json) {
        try (InputStream body = open(path, headers, json)) {
            return new String(body.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw ModelErrors.ofIo(endpoint, e);
        }
    }

    /**
     * POSTs {@code json} and reads the JSON answer with {@code parse}; an answer that is not JSON or
     * that {@code parse} rejects becomes {@code unreadable}'s exception (not retried).
     */
    public <T> T postJson(String path, Map<String, String> headers, String json, Function<JsonNode, T> parse,
                          Function<Exception, ModelException> unreadable) {
        String answer = post(path, headers, json);
        try {
            return parse.apply(dev.threadline.core.json.Json.mapper().readTree(answer));
        } catch (IOException | RuntimeException e) {
            throw unreadable.apply(e);
        }
    }

    /**
     * POSTs {@code json} asking for server-sent events and hands each event to {@code handler} until it
     * returns false or the stream ends; an event the handler cannot read becomes {@code unreadable}'s exception.
     */
    public void stream(String path, Map<String, String> headers, String json, Predicate<SseReader.Event> handler,
                       Function<Exception, ModelException> unreadable) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("accept", "text/event-stream");
        try (InputStream in = open(path, h, json)) {
            SseReader.read(in, handler);
        } catch (IOException e) {
            throw ModelErrors.ofIo(endpoint, e);
        } catch (ModelException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unreadable.apply(e);
        }
    }

    /** POSTs {@code json} to {@code path} and returns the open 2xx response body; the caller closes it. */
    public InputStream open(String path, Map<String, String> headers, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint.resolve(path)).timeout(settings.timeout())
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        headers.forEach(b::header);
        // the current span (the runtime's chat span when tracing is on) as the request's W3C traceparent: the
        // provider's or a gateway's trace joins the turn's; nothing is added when no span is current
        W3CTraceContextPropagator.getInstance().inject(Context.current(), b, HttpRequest.Builder::header);
        if ("http".equalsIgnoreCase(endpoint.baseUrl().getScheme())) {
            b.version(HttpClient.Version.HTTP_1_1); // no h2c upgrade dance with local servers (Ollama, vLLM, llama.cpp)
        }
        HttpRequest request = b.build();
        RetryPolicy policy = settings.retry();
        for (int attempt = 1; ; attempt++) {
            ModelException failure;
            Optional<Duration> asked = Optional.empty();
            try {
                HttpResponse<InputStream> r = settings.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
                if (r.statusCode() / 100 == 2) {
                    return r.body();
                }
                String body;
                try (InputStream in = r.body()) {
                    body = new String(in.readNBytes(MAX_ERROR_BODY), StandardCharsets.UTF_8);
                }
                failure = ModelErrors.ofStatus(endpoint, r.statusCode(), body);
                Optional<String> shouldRetry = r.headers().firstValue("x-should-retry");
                if (shouldRetry.isPresent() && failure.retryable() != shouldRetry.get().equalsIgnoreCase("true")) {
                    failure = new ModelException(failure.getMessage(), failure.kind(), !failure.retryable());
                }
                asked = RetryAfter.of(r.statusCode(), r.headers(), settings.clock());
            } catch (IOException | UncheckedIOException e) {
                failure = ModelErrors.ofIo(endpoint, e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw cancelled(e);
            }
            if (!failure.retryable() || attempt >= policy.maxAttempts()) {
                throw attempt == 1 ? failure : new ModelException(failure.getMessage() + " (gave up after " + attempt
                        + " attempts)", failure.kind(), failure.retryable(), failure);
            }
            Duration delay = asked.isPresent() ? asked.get() : policy.backoff(attempt, settings.random().getAsDouble());
            if (asked.isPresent() && delay.compareTo(policy.maxServerDelay()) > 0) {
                throw new ModelException(failure.getMessage() + " The server asks to wait " + delay.toSeconds()
                        + " s before trying again, longer than this client waits (" + policy.maxServerDelay().toSeconds()
                        + " s): try again later.", failure.kind(), true, failure);
            }
            LOG.debug("{} {} failed ({}), attempt {}/{}; retrying in {} ms", endpoint.spec(), path, failure.kind(), attempt,
                    policy.maxAttempts(), delay.toMillis());
            try {
                settings.sleeper().sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw cancelled(e);
            }
        }
    }

    private ModelException cancelled(InterruptedException e) {
        return new ModelException("the call to " + endpoint.spec() + " was cancelled (the thread was interrupted)",
                Kind.CANCELLED, false, e);
    }
}
