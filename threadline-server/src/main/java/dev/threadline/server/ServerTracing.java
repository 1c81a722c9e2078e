package dev.threadline.server;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The server's traces (docs/operations.md, "Traces"): the OpenTelemetry SDK configured by the standard
 * {@code OTEL_*} variables through its autoconfiguration, exporting over OTLP (HTTP/protobuf unless
 * {@code OTEL_EXPORTER_OTLP_PROTOCOL} says otherwise). Off, and the SDK never loaded, unless
 * {@code OTEL_TRACES_EXPORTER} (other than {@code none}) or an OTLP endpoint is set, and always off with
 * {@code OTEL_SDK_DISABLED=true}. Only traces: the metrics stay Micrometer's on {@code /metrics}, and
 * the SDK exports no metrics or logs unless told to.
 *
 * <p>On, every HTTP request gets a server span, the child of the caller's W3C {@code traceparent} when
 * it sends one; the turn it runs nests under it ({@code invoke_agent} and below, see the runtime's spans).
 */
final class ServerTracing implements AutoCloseable {
    static final ServerTracing OFF = new ServerTracing(null);

    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");

    private final OpenTelemetrySdk sdk;

    private ServerTracing(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
    }

    /**
     * Tracing as {@code env} (variables by their {@code OTEL_*} names: the process environment, with a
     * config's settings over it) asks: {@link #OFF} unless an exporter or an OTLP endpoint is set.
     */
    static ServerTracing configure(Map<String, String> env) {
        if (!on(env)) {
            return OFF;
        }
        Map<String, String> defaults = Map.of(
                "otel.service.name", "threadline",
                "otel.exporter.otlp.protocol", "http/protobuf",
                "otel.metrics.exporter", "none", // the metrics are Micrometer's, on /metrics
                "otel.logs.exporter", "none");
        Map<String, String> given = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("OTEL_") && v != null) {
                given.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
            }
        });
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> defaults)
                .addPropertiesSupplier(() -> given)
                .disableShutdownHook() // the server shuts it down when it closes, after the last turn's spans
                .build().getOpenTelemetrySdk();
        return new ServerTracing(sdk);
    }

    /** Whether {@code env} turns tracing on. */
    static boolean on(Map<String, String> env) {
        if ("true".equalsIgnoreCase(env.getOrDefault("OTEL_SDK_DISABLED", "").strip())) {
            return false;
        }
        String exporter = env.getOrDefault("OTEL_TRACES_EXPORTER", "").strip();
        if (!exporter.isEmpty()) {
            return !exporter.equalsIgnoreCase("none");
        }
        return !env.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "").isBlank()
                || !env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").isBlank();
    }

    boolean on() {
        return sdk != null;
    }

    /** What the runtime records its spans with: the SDK, or the no-op instance when off. */
    OpenTelemetry openTelemetry() {
        return sdk == null ? OpenTelemetry.noop() : sdk;
    }

    /** The servlet filter that gives each request its server span; only installed when on. */
    Filter requests() {
        Tracer tracer = sdk.getTracer("dev.threadline.server");
        return new Filter() {
            @Override
            public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
                HttpServletRequest request = (HttpServletRequest) req;
                Context parent = sdk.getPropagators().getTextMapPropagator().extract(Context.root(), request, HEADERS);
                Span span = tracer.spanBuilder(request.getMethod()).setParent(parent).setSpanKind(SpanKind.SERVER)
                        .setAttribute(METHOD, request.getMethod()).setAttribute(PATH, request.getRequestURI()).startSpan();
                try (Scope scope = span.makeCurrent()) {
                    chain.doFilter(req, res);
                } catch (IOException | ServletException | RuntimeException e) {
                    span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
                    throw e;
                } finally {
                    int status = ((HttpServletResponse) res).getStatus();
                    span.setAttribute(STATUS, (long) status);
                    if (status >= 500) {
                        span.setStatus(StatusCode.ERROR);
                    }
                    span.end();
                }
            }
        };
    }

    /**
     * Names the current request's span after its route ({@code POST /v1/sessions/{id}/messages}), once the
     * answer is written (Javalin's request logger runs inside the filter, on the request's thread).
     */
    static void route(String method, String route) {
        Span span = Span.current();
        if (span.isRecording()) {
            span.updateName(method + " " + route);
            span.setAttribute(ROUTE, route);
        }
    }

    /** Exports what is left and stops the SDK; waits at most 10 s. */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** Flushes the spans ended so far to the exporter (tests). */
    void flush() {
        if (sdk != null) {
            sdk.getSdkTracerProvider().forceFlush().join(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** The request's headers, to the propagators (which ask for theirs by name: traceparent, tracestate, baggage). */
    private static final TextMapGetter<HttpServletRequest> HEADERS = (carrier, key) -> carrier == null ? null : carrier.getHeader(key);
}
