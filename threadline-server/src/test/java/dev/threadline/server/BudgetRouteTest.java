package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session created with a budget over HTTP: its turn suspends with {@code budget_exceeded} before the model call
 * past it; {@code PUT .../budget} continues it and answers with the turn's result; too small a raise and bad input
 * are 400s naming the field, and write nothing.
 */
class BudgetRouteTest {
    @TempDir
    Path dir;

    private static Http.Response put(Http http, String path, String body) {
        return Http.send(http.request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    @Test
    void aTurnPastTheBudgetWaitsUntilAPutRaisesIt() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("s.db"))
                .models(dev.threadline.core.llm.ModelResolver.of(java.util.List.of(ScriptedModel.demo())))
                .skills(dev.threadline.core.skill.builtin.Builtins.all(dir)).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0))) {
            Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
            assertThat(http.post("/v1/sessions", "{\"id\":\"b\",\"config\":{\"budget\":{\"tokens\":1}}}").status()).isEqualTo(201);
            Http.Response turn = http.post("/v1/sessions/b/messages", "{\"text\":\"what is (2+3)*7\"}");
            assertThat(turn.status()).as(turn.body()).isEqualTo(200);
            assertThat(turn.json().path("outcome").asText()).isEqualTo("BUDGET_EXCEEDED");
            assertThat(turn.json().path("reason").asText()).startsWith("budget_exceeded: the session has used");
            assertThat(http.get("/v1/sessions/b/state").json().path("status").asText()).isEqualTo("budget_exceeded");
            long head = http.get("/v1/sessions/b/state").json().path("seq").asLong();

            for (String bad : new String[] {"{\"tokens\":1}", "{\"tokens\":-1}", "{\"cost\":\"abc\"}", "{\"cost\":\"0.0000001\"}",
                    "{\"tokens\":5,\"colour\":1}"}) {
                Http.Response b = put(http, "/v1/sessions/b/budget", bad);
                assertThat(b.status()).as(bad + " -> " + b.body()).isEqualTo(400);
                assertThat(b.json().path("field").asText()).as(bad).isNotBlank();
            }
            assertThat(http.get("/v1/sessions/b/state").json().path("seq").asLong()).as("nothing written").isEqualTo(head);

            Http.Response raised = put(http, "/v1/sessions/b/budget", "{\"tokens\":1000000}");
            assertThat(raised.status()).as(raised.body()).isEqualTo(200);
            JsonNode r = raised.json();
            assertThat(r.path("turn").path("outcome").asText()).isEqualTo("COMPLETED");
            assertThat(r.path("turn").path("reply").asText()).contains("35");
            assertThat(r.path("status").asText()).isEqualTo("idle");
            assertThat(r.path("budget").path("tokens").asLong()).isEqualTo(1_000_000);

            Http.Response idle = put(http, "/v1/sessions/b/budget", "{\"cost\":\"2.50\"}");
            assertThat(idle.status()).isEqualTo(200);
            assertThat(idle.json().path("turn").isNull()).isTrue();
            assertThat(idle.json().path("budget").path("costMicros").asLong()).isEqualTo(2_500_000);
        }
    }
}
