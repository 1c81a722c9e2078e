package dev.threadline.models.anthropic;

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

/** Retries, waits and error kinds of the Anthropic provider, against a local server; no real sleeping. */
class AnthropicErrorsTest {
    static final String OK = "{\"content\":[{\"type\":\"text\",\"text\":\"fine\"}],\"stop_reason\":\"end_turn\"}";
    static final String OVERLOADED = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";

    final LocalServer server = LocalServer.start();
    final TestHttp.RecordingSleeper sleeper = new TestHttp.RecordingSleeper();
    final AnthropicChatModel model = AnthropicChatModel.builder().apiKey("sk-ant-secret-123").model("claude-sonnet-4-5")
            .baseUrl(server.url()).http(TestHttp.settings(sleeper)).build();
    final ChatRequest request = new ChatRequest("m", "", List.of(Message.user("hi")), List.of(), 64);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a429WithRetryAfterWaitsWhatTheServerAskedAndRetries() {
        server.json(429, Map.of("retry-after", "7", "content-type", "application/json"),
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Number of request tokens has exceeded your rate limit\"}}");
        server.json(200, OK);

        assertThat(model.complete(request).text()).isEqualTo("fine");
        assertThat(sleeper.delays()).containsExactly(Duration.ofSeconds(7));
        assertThat(server.requests()).hasSize(2);
        assertThat(server.request(1).body()).isEqualTo(server.request(0).body());
    }

    @Test
    void retryAfterMsWinsAndAnHttpDateIsReadAgainstTheClock() {
        server.json(429, Map.of("retry-after-ms", "1500", "retry-after", "2"), "{}");
        server.json(429, Map.of("retry-after", "Mon, 30 Nov 2026 12:00:12 GMT"), "{}");
        server.json(200, OK);
        model.complete(request);
        assertThat(sleeper.delays()).containsExactly(Duration.ofMillis(1500), Duration.ofSeconds(12));
    }

    @Test
    void the429RateLimitResetHeaderIsHonouredWhenThereIsNoRetryAfter() {
        server.json(429, Map.of("anthropic-ratelimit-requests-remaining", "0",
                "anthropic-ratelimit-requests-reset", "2026-11-30T12:00:03Z"), "{}");
        server.json(200, OK);
        model.complete(request);
        assertThat(sleeper.delays()).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void overloaded529And503AreRetriedWithExponentialBackoff() {
        server.json(529, OVERLOADED);
        server.json(503, "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"unavailable\"}}");
        server.json(200, OK);

        assertThat(model.complete(request).text()).isEqualTo("fine");
        assertThat(sleeper.delays()).containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000));
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void afterMaxAttemptsItGivesUpSayingSo() {
        for (int i = 0; i < 4; i++) {
            server.json(529, OVERLOADED);
        }
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.OVERLOADED);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("HTTP 529").contains("overloaded").contains("gave up after 4 attempts");
        });
        assertThat(sleeper.delays()).containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000), Duration.ofMillis(2000));
    }

    @Test
    void aServerThatAsksForTooLongAWaitFailsAtOnce() {
        server.json(429, Map.of("retry-after", "3600"), "{}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.RATE_LIMITED);
            assertThat(e.getMessage()).contains("asks to wait 3600 s");
        });
        assertThat(sleeper.delays()).isEmpty();
    }

    @Test
    void xShouldRetryFalseIsObeyed() {
        server.json(500, Map.of("x-should-retry", "false"), "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"boom\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class,
                e -> assertThat(e.retryable()).isFalse());
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void promptTooLongIsAContextTooLongErrorThatIsNotRetried() {
        server.json(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
                + "\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.CONTEXT_TOO_LONG);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).contains("prompt is too long: 210000 tokens > 200000 maximum")
                    .contains("too long for claude-sonnet-4-5's context window");
        });
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void a401IsABadKeyErrorNamingTheVariableNotRetriedAndNeverShowingTheKey() {
        server.json(401, "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.AUTH);
            assertThat(e.retryable()).isFalse();
            assertThat(e.getMessage()).startsWith("bad API key: Anthropic refused it (HTTP 401: invalid x-api-key)").contains("set ANTHROPIC_API_KEY").doesNotContain("secret-123");
        });
        assertThat(server.requests()).hasSize(1);
        assertThat(sleeper.delays()).isEmpty();
    }

    @Test
    void a404NamesTheModel() {
        server.json(404, "{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-sonnet-4-5\"}}");
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
            assertThat(e.getMessage()).contains("model 'claude-sonnet-4-5' was not found");
        });
    }

    @Test
    void anUnreachableServerIsANetworkErrorRetriedThenGivenUp() {
        String url = server.url();
        server.close();
        assertThatThrownBy(() -> model.complete(request)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.NETWORK);
            assertThat(e.getMessage()).contains("could not talk to Anthropic at " + url).contains("gave up after 4 attempts");
        });
        assertThat(sleeper.delays()).hasSize(3);
    }
}
