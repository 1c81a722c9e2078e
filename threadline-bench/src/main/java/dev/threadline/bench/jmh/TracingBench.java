package dev.threadline.bench.jmh;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What traces cost a turn (issue 28): one turn on the in-memory store with a scripted model that answers
 * at once (two steps: the user's message and the reply, so two appends and one model call), with tracing
 * {@code off} (the default, {@code OpenTelemetry.noop()}) and {@code on} (the SDK with a batch processor,
 * sampling every span, into an exporter that drops them: the runtime's and the SDK's cost, not a network's);
 * {@code unset} never calls {@code openTelemetry(...)}, so it also runs against a core built before traces
 * (that core's jar first on the class path) for the cost of the off switch itself.
 * A session takes 200 turns, then the next one starts, so the transcript stays short in both modes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
public class TracingBench {
    private static final int TURNS_PER_SESSION = 200;

    @Param({"off", "on", "unset"})
    String tracing;

    private OpenTelemetrySdk sdk;
    private Threadline runtime;
    private Session session;
    private int turns;
    private int sessions;

    @Setup
    public void setUp() {
        OpenTelemetry otel = OpenTelemetry.noop();
        if (tracing.equals("on")) {
            sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(BatchSpanProcessor.builder(new Dropping()).build()).build()).build();
            otel = sdk;
        }
        ChatResponse reply = ScriptedModel.text("ok");
        Threadline.Builder b = Threadline.builder().store(new InMemoryStateStore()).model(ScriptedModel.of(r -> reply));
        runtime = (tracing.equals("unset") ? b : b.openTelemetry(otel)).build();
        next();
    }

    private void next() {
        session = runtime.defaultTenant().create("bench-" + sessions++, SessionConfig.DEFAULT);
        turns = 0;
    }

    @TearDown
    public void tearDown() {
        runtime.close();
        if (sdk != null) {
            sdk.close();
        }
    }

    @Benchmark
    public Object turn() {
        if (turns++ == TURNS_PER_SESSION) {
            next();
        }
        return session.submit("hello");
    }

    /** Accepts every batch and keeps nothing. */
    private static final class Dropping implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
