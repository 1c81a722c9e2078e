package dev.threadline.server;

import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.runtime.TurnResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's meters, scraped at {@code /metrics} in the Prometheus text format: turns by outcome,
 * steps and events this node committed, running turns, open SSE streams, and request latency by
 * route and status. Thread-safe.
 */
public final class ServerMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger sseOpen = new AtomicInteger();
    private final AtomicInteger turnsRunning = new AtomicInteger();
    private final Counter steps;
    private final Counter events;

    ServerMetrics() {
        registry.gauge("threadline.sse.streams.open", sseOpen);
        registry.gauge("threadline.turns.running", turnsRunning);
        steps = Counter.builder("threadline.steps").description("steps committed by this node").register(registry);
        events = Counter.builder("threadline.events.appended").description("journal events appended by this node").register(registry);
    }

    /** The listener that counts this node's commits (added to each tenant the server serves). */
    EventListener commitCounter() {
        return (sessionId, committed, state) -> {
            steps.increment();
            events.increment(committed.size());
        };
    }

    /** Counts a finished turn by its outcome. */
    public void turnEnded(TurnResult result) {
        registry.counter("threadline.turns", "outcome", result.outcome().name().toLowerCase(Locale.ROOT)).increment();
    }

    /** Counts a turn that ended with an error instead of a result. */
    public void turnFailed(Throwable error) {
        registry.counter("threadline.turns", "outcome", "error").increment();
    }

    /** Records one request's latency. */
    public void request(String method, String route, int status, Duration took) {
        Timer.builder("http.server.requests").tag("method", method).tag("route", route).tag("status", Integer.toString(status))
                .register(registry).record(took);
    }

    /** The open SSE streams counter. */
    public AtomicInteger sseOpen() {
        return sseOpen;
    }

    /** The running turns counter. */
    public AtomicInteger turnsRunning() {
        return turnsRunning;
    }

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }
}
