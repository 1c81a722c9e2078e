package dev.threadline.models.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelException.Kind;
import dev.threadline.core.model.Message;
import dev.threadline.models.LocalServer;
import dev.threadline.models.TestHttp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The same retry and error behaviour as the Anthropic provider, in OpenAI's wire format. */
class OpenAiErrorsTest {
    static final String OK = OpenAiChatModelTest.completion("{\"role\":\"assistant\",\"content\":\"fine\"}", "stop", null);

    final LocalServer server = LocalServer.start();
    final TestHttp.RecordingSleeper sleeper = new TestHttp.RecordingSleeper();
    final OpenAiChatModel model = OpenAiChatModel.builder().model("gpt-4o-mini").apiKey("sk-proj-secret-456")
            .baseUrl(server.url() + "/v1").http(TestHttp.settings(sleeper)).build();
    final ChatRequest request = new ChatRequest("m", "", List.of(Message.user("hi")), List.of(), 64);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a429WithRetryAfterThenSuccess() {
        server.json(429, Map.of("retry-after", "2"), "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}");
        server.json(200, OK);
        assertThat(model.complete(request).text()).isEqualTo("fine");
        assertThat(sleeper.delays()).containsExactly(Duration.ofSeconds(2));
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void a429WithOnlyTheRateLimitResetHeaderWaitsForTheReset() {
        server.json(429, Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1.5s"), "{}");
        server.json(200, OK);
        model.complete(request);
        assertThat(sleeper.delays()).containsExactly(Duration.ofMillis(1500));
    }

    @Test
    void a503IsRetriedWithBackoff() {
        server.json(503, "{\"error\":{\"message\":\"The engine is currently overloaded\"}}");
        server.json(502, "bad gateway");
        server.json(200, OK);
        assertThat(model.complete(request).text()).isEqualTo("fine");
        assertThat(sleeper.delays()).containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000));
    }

    @Test
    void contextLengthExceededIsContextTooLong() {
        server.json(400, "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, your messages"
                + " resulted in 130000 tokens.\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.CONTEXT_TOO_LONG);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).contains("maximum context length is 128000 tokens").contains("context window");
        });
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void a401NamesOpenAiApiKeyAndIsNotRetried() {
        server.json(401, "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.AUTH);
            assertThat(e.getMessage()).startsWith("bad API key").contains("set OPENAI_API_KEY").doesNotContain("secret-456");
        });
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aMissingModelOnAnOllamaStyleServerNamesTheModel() {
        server.json(404, "{\"error\":\"model \\\"gpt-4o-mini\\\" not found, try pulling it first\"}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
            assertThat(e.getMessage()).contains("model 'gpt-4o-mini' was not found at " + server.url() + "/v1")
                    .contains("try pulling it first");
        });
    }

    @Test
    void anotherBadRequestIsNotRetriedAndShowsTheServersMessage() {
        server.json(400, "{\"error\":{\"message\":\"Invalid value for 'tools'\",\"type\":\"invalid_request_error\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.BAD_REQUEST);
            assertThat(e.getMessage()).contains("HTTP 400: Invalid value for 'tools'");
        });
    }

    @Test
    void aReplyThatIsNotJsonIsAClearError() {
        server.json(200, "<html>proxy login</html>");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class,
                e -> assertThat(e.getMessage()).contains("cannot read").contains("OpenAI-compatible"));
    }
}
