package dev.threadline.core.runtime;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The runtime's spans: their nesting under the caller's span, the GenAI attributes, and no content. */
class TracingTest {
    private static final String SECRET = "the-secret-words";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
    private final OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(provider).build();

    @AfterEach
    void close() {
        otel.close();
    }

    private Threadline runtime() {
        return Threadline.builder().store(new InMemoryStateStore()).skill(TestSkills.echo()).openTelemetry(otel)
                .model(ScriptedModel.of(req -> {
                    Message last = req.messages().get(req.messages().size() - 1);
                    return last.text().startsWith("echo ")
                            ? toolCall("t" + req.messages().size(), "echo", "{\"text\":\"" + last.text().substring(5) + "\"}")
                            : text("ack " + last.toolResults().stream().map(r -> r.content()).toList());
                })).build();
    }

    @Test
    void aTurnNestsItsModelToolAndAppendSpansUnderTheCallersSpanWithoutContent() {
        try (Threadline tl = runtime()) {
            Session s = tl.tenant("acme").create("s1", SessionConfig.DEFAULT);
            spans.reset();
            Span request = otel.getTracer("test").spanBuilder("request").startSpan();
            try (Scope scope = request.makeCurrent()) {
                s.submit("echo " + SECRET);
            } finally {
                request.end();
            }
        }
        List<SpanData> all = spans.getFinishedSpanItems();
        Map<String, SpanData> byId = all.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        SpanData root = one(all, "request");
        SpanData turn = one(all, "invoke_agent");
        assertThat(turn.getParentSpanId()).isEqualTo(root.getSpanId());
        assertThat(turn.getTraceId()).isEqualTo(root.getTraceId());
        assertThat(turn.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("invoke_agent");
        assertThat(turn.getAttributes().get(AttributeKey.stringKey("gen_ai.conversation.id"))).isEqualTo("s1");
        assertThat(turn.getAttributes().get(AttributeKey.stringKey("threadline.tenant"))).isEqualTo("acme");
        assertThat(turn.getAttributes().get(AttributeKey.stringKey("threadline.outcome"))).isEqualTo("completed");

        List<SpanData> chats = all.stream().filter(d -> d.getName().startsWith("chat ")).toList();
        assertThat(chats).hasSize(2).allSatisfy(c -> {
            assertThat(c.getParentSpanId()).isEqualTo(turn.getSpanId());
            assertThat(c.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(c.getAttributes().get(AttributeKey.stringKey("gen_ai.provider.name"))).isEqualTo("scripted");
            assertThat(c.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isNotBlank();
            assertThat(c.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens"))).isNotNull();
        });
        assertThat(chats).extracting(c -> c.getAttributes().get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons")))
                .containsExactlyInAnyOrder(List.of("tool_use"), List.of("end_turn"));

        SpanData tool = one(all, "execute_tool echo");
        assertThat(tool.getParentSpanId()).isEqualTo(turn.getSpanId());
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name"))).isEqualTo("echo");
        assertThat(tool.getAttributes().get(AttributeKey.stringKey("threadline.outcome"))).isEqualTo("completed");

        List<SpanData> appends = all.stream().filter(d -> d.getName().equals("threadline.journal.append")).toList();
        assertThat(appends).hasSizeGreaterThanOrEqualTo(3);
        assertThat(appends).extracting(a -> byId.get(a.getParentSpanId()).getName()).contains("invoke_agent", "execute_tool echo");
        assertThat(all).allSatisfy(d -> {
            assertThat(d.getTraceId()).isEqualTo(root.getTraceId());
            assertThat(d.getAttributes().asMap().values()).allSatisfy(v -> assertThat(String.valueOf(v)).doesNotContain(SECRET));
            assertThat(d.getEvents()).isEmpty();
        });
    }

    @Test
    void forksAndRewindsHaveTheirOwnSpans() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("one");
            long afterOne = s.state().seq();
            s.submit("two");
            spans.reset();
            s.fork(afterOne, "s1-fork");
            s.rewind(afterOne);
        }
        SpanData fork = one(spans.getFinishedSpanItems(), "threadline.fork");
        assertThat(fork.getAttributes().get(AttributeKey.stringKey("threadline.branch.id"))).isEqualTo("s1-fork");
        one(spans.getFinishedSpanItems(), "threadline.rewind");
        assertThat(spans.getFinishedSpanItems()).filteredOn(d -> d.getName().equals("threadline.session.create"))
                .extracting(SpanData::getParentSpanId).hasSize(2);
    }

    @Test
    void aFailedTurnMarksItsSpansWithTheErrorsClassOnly() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).openTelemetry(otel)
                .model(ScriptedModel.of(req -> {
                    throw new dev.threadline.core.llm.ModelException("provider said: " + SECRET, false);
                })).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            try {
                s.submit("hello " + SECRET);
            } catch (RuntimeException expected) {
                // the model failed
            }
        }
        SpanData turn = one(spans.getFinishedSpanItems(), "invoke_agent");
        assertThat(turn.getStatus().getStatusCode()).isEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
        assertThat(turn.getStatus().getDescription()).isEqualTo("ModelException");
        SpanData chat = one(spans.getFinishedSpanItems(), "chat scripted");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("error.type"))).endsWith("ModelException");
        assertThat(spans.getFinishedSpanItems()).allSatisfy(d ->
                assertThat(d.getAttributes().asMap().values()).allSatisfy(v -> assertThat(String.valueOf(v)).doesNotContain(SECRET)));
    }

    private static SpanData one(List<SpanData> all, String name) {
        List<SpanData> named = all.stream().filter(d -> d.getName().equals(name)).toList();
        assertThat(named).as("spans named %s among %s", name, all.stream().map(SpanData::getName).toList()).hasSize(1);
        return named.getFirst();
    }
}
