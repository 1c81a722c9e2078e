package dev.threadline.server;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.runtime.EventListener;
import dev.threadline.core.runtime.LiveSessions;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.server.http.Problem;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The server's meters, scraped at {@code /metrics} in the Prometheus text format: turns by outcome,
 * steps and events this node committed, conflicts by kind and fencing refusals, commands running and
 * queued, tool latency (from the journal: a call's start to its end) and model latency (each model
 * call, by model provider), open SSE streams, refusals at a limit, and request latency by route and status.
 *
 * <p>Every tag value comes from a bounded set the operator controls, never from what a tenant sends, so
 * that no tenant can write into {@code /metrics} or grow it without bound: routes are templates (or
 * {@code unmatched}); {@code tool} is the name of a skill this server was started with, or {@code other};
 * {@code model} is the model's provider, the part of its name before the first {@code :} ({@code openai},
 * {@code anthropic}), or the whole name when it has none (those are names the operator's resolver gives,
 * like {@code scripted}), and at most {@value #MAX_MODEL_TAGS} distinct values, later ones counted as
 * {@code other}; kinds and limits are the server's own problem types. Thread-safe.
 */
public final class ServerMetrics {
    private static final int MAX_OPEN_CALLS = 10_000;
    /** How many distinct {@code model} tag values are kept; later ones are tagged {@code other}. */
    static final int MAX_MODEL_TAGS = 16;
    /** The tag value of a tool or model outside the bounded set. */
    static final String OTHER = "other";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger sseOpen = new AtomicInteger();
    private final Counter steps;
    private final Counter events;
    private final Counter fencing;
    /** Tool calls started and not yet ended, by tenant/session/toolUseId: when and which tool. */
    private final Map<String, Started> openCalls = new ConcurrentHashMap<>();

    private final java.util.Set<String> tools;
    private final java.util.Set<String> modelTags = ConcurrentHashMap.newKeySet();

    private record Started(Instant at, String tool) {}

    /** @param tools the names of the skills the server serves: the only values of the {@code tool} tag besides {@code other} */
    ServerMetrics(java.util.Collection<String> tools) {
        this.tools = java.util.Set.copyOf(tools);
        registry.gauge("threadline.sse.streams.open", sseOpen);
        steps = Counter.builder("threadline.steps").description("steps committed by this node").register(registry);
        events = Counter.builder("threadline.events.appended").description("journal events appended by this node").register(registry);
        fencing = Counter.builder("threadline.fencing.refusals")
                .description("writes refused because another node took the session's lease over").register(registry);
    }

    /**
     * Publishes what the engine has live ({@code Threadline.live()}): the turns this node runs now
     * ({@code threadline.turns.running}; a turn suspended for a person does not run) and the commands
     * waiting behind another command of their session ({@code threadline.commands.queued}). The gauges
     * hold {@code live} strongly: a gauge keeps only a weak reference by default, and an object held by
     * nothing else is collected at the next GC, after which the gauge reads NaN.
     */
    void observe(LiveSessions live) {
        Gauge.builder("threadline.turns.running", live, LiveSessions::runningTurns)
                .description("turns this node runs now").strongReference(true).register(registry);
        Gauge.builder("threadline.commands.queued", live, LiveSessions::queuedCommands)
                .description("commands this node holds that wait behind another command of their session")
                .strongReference(true).register(registry);
    }

    /** The listener that counts this node's commits and times tool calls (added to each tenant the server serves). */
    EventListener commitCounter(String tenant) {
        return (sessionId, committed, state) -> {
            steps.increment();
            events.increment(committed.size());
            for (StoredEvent e : committed) {
                switch (e.event()) {
                    case Event.ToolCallStarted s -> {
                        if (openCalls.size() < MAX_OPEN_CALLS) {
                            openCalls.put(tenant + "\u0000" + sessionId + "\u0000" + s.toolUseId(), new Started(e.time(), s.name()));
                        }
                    }
                    case Event.ToolCallEnded end -> {
                        Started s = openCalls.remove(tenant + "\u0000" + sessionId + "\u0000" + end.toolUseId());
                        if (s != null) {
                            Timer.builder("threadline.tool.latency").description("a tool call's start to its result, from the journal")
                                    .tag("tool", tools.contains(s.tool()) ? s.tool() : OTHER).register(registry).record(Duration.between(s.at(), e.time()));
                        }
                    }
                    default -> { }
                }
            }
        };
    }

    /**
     * The {@code model} tag of {@code name}: its provider (before the first {@code :}), or the name when it
     * has no provider part; {@code other} past {@value #MAX_MODEL_TAGS} distinct values.
     */
    String modelTag(String name) {
        String s = name == null ? "" : name.strip();
        int colon = s.indexOf(':');
        String tag = colon >= 0 ? s.substring(0, colon) : s;
        if (tag.isEmpty() || tag.length() > 64) {
            return OTHER;
        }
        if (modelTags.contains(tag)) {
            return tag;
        }
        synchronized (modelTags) {
            if (modelTags.size() >= MAX_MODEL_TAGS) {
                return OTHER;
            }
            modelTags.add(tag);
            return tag;
        }
    }

    /** {@code models} with each model call timed, tagged by {@link #modelTag}. */
    ModelResolver timed(ModelResolver models) {
        Map<ChatModel, ChatModel> wrapped = new ConcurrentHashMap<>();
        return new ModelResolver() {
            @Override
            public java.util.Optional<ChatModel> find(String spec) {
                return models.find(spec).map(m -> wrapped.computeIfAbsent(m, TimedModel::new));
            }

            @Override
            public java.util.Optional<ChatModel> find(String spec, String baseUrl) {
                return models.find(spec, baseUrl).map(m -> wrapped.computeIfAbsent(m, TimedModel::new));
            }
        };
    }

    private final class TimedModel implements ChatModel {
        private final ChatModel model;
        private final Timer timer;

        TimedModel(ChatModel model) {
            this.model = model;
            this.timer = Timer.builder("threadline.model.latency").description("one model call, request to whole reply")
                    .tag("model", modelTag(model.name())).register(registry);
        }

        @Override
        public String name() {
            return model.name();
        }

        @Override
        public ChatResponse complete(ChatRequest request) {
            return timer.record(() -> model.complete(request));
        }

        @Override
        public ChatResponse stream(ChatRequest request, Consumer<String> listener) {
            return timer.record(() -> model.stream(request, listener));
        }

        @Override
        public ChatResponse stream(ChatRequest request, dev.threadline.core.llm.StreamListener listener) {
            return timer.record(() -> model.stream(request, listener));
        }

        @Override
        public int contextWindowTokens() {
            return model.contextWindowTokens();
        }

        @Override
        public java.util.OptionalLong countTokens(ChatRequest request) {
            return model.countTokens(request);
        }
    }

    /** Counts a problem answered: conflicts (409, 422) by kind, fencing refusals, refusals at a limit (429). */
    void problem(Problem p) {
        String kind = p.type().substring(p.type().lastIndexOf('/') + 1);
        if (p.status() == 409 || p.status() == 422) {
            registry.counter("threadline.conflicts", "kind", kind).increment();
        }
        if (kind.equals("session-taken-over")) {
            fencing.increment();
        }
        if (p.status() == 429) {
            registry.counter("threadline.limits.refused", "limit", kind).increment();
        }
    }

    /** Counts what one retention pass did: sessions removed, and kept because leased or because of live branches. */
    void swept(dev.threadline.core.runtime.SweepResult r) {
        registry.counter("threadline.sweep.sessions", "outcome", "removed").increment(r.removed());
        registry.counter("threadline.sweep.sessions", "outcome", "leased").increment(r.running());
        registry.counter("threadline.sweep.sessions", "outcome", "branches").increment(r.withBranches());
        registry.counter("threadline.sweep.sessions", "outcome", "held").increment(r.held());
        registry.counter("threadline.sweep.passes", "result", "ok").increment();
    }

    /** Counts a retention pass that failed (the store unreachable, ...). */
    void sweepFailed() {
        registry.counter("threadline.sweep.passes", "result", "failed").increment();
    }

    /** Counts what one pruning pass did for a tenant: sessions pruned, left as they were, held or leased, and the events it removed. */
    void pruned(dev.threadline.core.runtime.PruneSweep r) {
        registry.counter("threadline.prune.sessions", "outcome", "pruned").increment(r.pruned());
        registry.counter("threadline.prune.sessions", "outcome", "unchanged").increment(r.unchanged());
        registry.counter("threadline.prune.sessions", "outcome", "held").increment(r.held());
        registry.counter("threadline.prune.sessions", "outcome", "leased").increment(r.running());
        registry.counter("threadline.prune.events").increment(r.eventsRemoved());
    }

    /** Counts a pruning pass, {@code ok} or {@code failed}. */
    void prunePass(boolean ok) {
        registry.counter("threadline.prune.passes", "result", ok ? "ok" : "failed").increment();
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

    /** The Prometheus text exposition of every meter. */
    public String scrape() {
        return registry.scrape();
    }
}
