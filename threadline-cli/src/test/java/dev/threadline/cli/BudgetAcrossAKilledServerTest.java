package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29's budget acceptance with real processes: a turn on one {@code threadline serve} crosses the session's
 * budget and suspends with {@code budget_exceeded}; that server is SIGKILLed; a second server on the same store
 * raises the budget and the turn completes there; every reply's recorded cost is its tokens at the config file's
 * prices, and the session's total is their sum.
 */
class BudgetAcrossAKilledServerTest {
    private static final long INPUT_PRICE = 2;
    private static final long OUTPUT_PRICE = 4;

    @TempDir
    Path dir;

    @Test
    void aRaiseOnAnotherServerContinuesTheTurnTheKilledOneSuspended() throws Exception {
        Path config = Files.writeString(dir.resolve("serve.json"), "{\"store\": \"sqlite:" + dir.resolve("b.db")
                + "\", \"prices\": {\"scripted\": {\"input\": " + INPUT_PRICE + ", \"output\": " + OUTPUT_PRICE + "}}}");
        String key;
        try (ServeProcess first = new ServeProcess("--config", config.toString())) {
            key = first.createdKey;
            assertThat(first.send(key, "POST", "/v1/sessions", "{\"id\":\"b\",\"config\":{\"budget\":{\"tokens\":1}}}").status())
                    .isEqualTo(201);
            ServeProcess.Response turn = first.send(key, "POST", "/v1/sessions/b/messages", "{\"text\":\"what is (2+3)*7\"}");
            assertThat(turn.status()).as(turn.body()).isEqualTo(200);
            assertThat(turn.json().path("outcome").asText()).isEqualTo("BUDGET_EXCEEDED");
            first.process.destroyForcibly(); // SIGKILL: nothing of this process is left to finish the turn
            assertThat(first.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        try (ServeProcess second = new ServeProcess("--config", config.toString())) {
            ServeProcess.Response state = second.send(key, "GET", "/v1/sessions/b/state", null);
            assertThat(state.json().path("status").asText()).as(state.body()).isEqualTo("budget_exceeded");
            ServeProcess.Response raised = second.send(key, "PUT", "/v1/sessions/b/budget", "{\"tokens\":1000000}");
            assertThat(raised.status()).as(raised.body()).isEqualTo(200);
            assertThat(raised.json().path("turn").path("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(raised.json().path("turn").path("reply").asText()).contains("35");

            List<JsonNode> lines = second.send(key, "GET", "/v1/sessions/b/export", null).body().lines()
                    .map(l -> Json.parse(l, "line")).toList();
            long total = 0;
            int replies = 0;
            for (JsonNode line : lines) {
                JsonNode usage = line.path("event").path("message").path("usage");
                if (line.path("event").path("type").asText().equals("AssistantMessageReceived")) {
                    long expected = INPUT_PRICE * usage.path("inputTokens").asLong() + OUTPUT_PRICE * usage.path("outputTokens").asLong();
                    assertThat(usage.path("costMicros").asLong()).as(usage.toString()).isEqualTo(expected).isPositive();
                    total += expected;
                    replies++;
                }
            }
            assertThat(replies).as("the call before the suspension and the one after the raise").isEqualTo(2);
            assertThat(lines).anyMatch(l -> l.path("event").path("type").asText().equals("BudgetSet"));
            assertThat(second.send(key, "GET", "/v1/sessions/b/state", null).json().path("usage").path("costMicros").asLong())
                    .isEqualTo(total);
        }
    }
}
