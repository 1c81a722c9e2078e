package dev.threadline.server;

import dev.threadline.harness.servers.SilentServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.models.Models;
import dev.threadline.models.http.HttpSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/sessions/{id}/interrupt} while the turn waits for a model server that accepts and
 * never answers (issue 26, item 1): the model call's connection is closed, the message's answer says
 * the turn was interrupted, and the session is idle. The bounds are generous waits for conditions; the
 * model's HTTP timeout is the default ten minutes, so only the interrupt can end the call.
 */
class InterruptAWaitingModelTest {
    private static final long BOUND = 30;

    @TempDir
    Path dir;

    @Test
    void anInterruptOverHttpCancelsTheModelCallAndTheSessionIsIdle() throws Exception {
        try (SilentServer model = new SilentServer(false);
             TestServer ts = new TestServer(ServerConfig.of(dir.resolve("t.db")).withPort(0)
                     .withModels(Models.resolver(model.url() + "/v1", Map.of(), 0, HttpSettings.defaults())))) {
            assertThat(ts.http.post("/v1/sessions", "{\"id\":\"w1\",\"config\":{\"model\":\"openai:test-model\"}}").status())
                    .isEqualTo(201);
            CompletableFuture<Http.Response> message = CompletableFuture.supplyAsync(
                    () -> ts.http.post("/v1/sessions/w1/messages", "{\"text\":\"hello\"}"));
            assertThat(model.requested.await(BOUND, TimeUnit.SECONDS)).as("the model call reached the model server").isTrue();
            assertThat(ts.http.get("/v1/sessions/w1/state").json().path("status").asText()).isEqualTo("running");

            JsonNode interrupt = ts.http.post("/v1/sessions/w1/interrupt", "").json();
            assertThat(interrupt.path("interrupted").asBoolean()).isTrue();

            Http.Response answer = message.get(BOUND, TimeUnit.SECONDS);
            assertThat(answer.json().path("outcome").asText()).as(answer.body()).isEqualToIgnoringCase("interrupted");
            assertThat(model.awaitClosedByClient(BOUND)).as("the model call's connection is closed").isTrue();
            assertThat(ts.http.get("/v1/sessions/w1/state").json().path("status").asText()).isEqualTo("idle");
        }
    }
}
