package dev.threadline.models.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.model.Message;
import dev.threadline.models.LocalServer;
import dev.threadline.models.TestHttp;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The providers' requests carry the current span as their W3C {@code traceparent}, and nothing without one. */
class TraceparentTest {
    final LocalServer server = LocalServer.start();
    final OpenAiChatModel model = OpenAiChatModel.builder().model("llama3.1").baseUrl(server.url() + "/v1")
            .http(TestHttp.settings(new TestHttp.RecordingSleeper())).build();
    final ChatRequest request = new ChatRequest("llama3.1", null, List.of(Message.user("hi")), List.of(), 64);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theCurrentSpanIsTheRequestsTraceparent() {
        server.json(200, OpenAiChatModelTest.completion("{\"role\":\"assistant\",\"content\":\"hello\"}", "stop", null));
        SpanContext chat = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", TraceFlags.getSampled(),
                TraceState.getDefault());
        try (Scope scope = Span.wrap(chat).makeCurrent()) {
            model.complete(request);
        }
        assertThat(server.request(0).header("traceparent")).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void noSpanNoHeader() {
        server.json(200, OpenAiChatModelTest.completion("{\"role\":\"assistant\",\"content\":\"hello\"}", "stop", null));
        model.complete(request);
        assertThat(server.request(0).header("traceparent")).isNull();
    }
}
