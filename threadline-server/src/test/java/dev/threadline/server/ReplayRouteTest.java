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
 * {@code POST /v1/sessions/{id}/replay} (issue 29 item 4): the session's turns run again on a new branch,
 * the recorded calculate call answers the replay's, and the comparison comes back per turn; bad input is a
 * 400 naming the field and makes no branch.
 */
class ReplayRouteTest {
    @TempDir
    Path dir;

    @Test
    void replayComparesEachTurnOnANewBranchAndRefusesBadInput() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("s.db"))
                .models(dev.threadline.core.llm.ModelResolver.of(java.util.List.of(ScriptedModel.demo()))) // knows "scripted" only
                .skills(dev.threadline.core.skill.builtin.Builtins.all(dir)).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0))) {
            Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
            assertThat(http.post("/v1/sessions", "{\"id\":\"s\"}").status()).isEqualTo(201);
            assertThat(http.post("/v1/sessions/s/messages", "{\"text\":\"hello\"}").status()).isEqualTo(200);
            assertThat(http.post("/v1/sessions/s/messages", "{\"text\":\"what is (2+3)*7\"}").status()).isEqualTo(200);

            Http.Response r = http.post("/v1/sessions/s/replay", "{\"model\":\"scripted\"}");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode report = r.json();
            assertThat(report.path("sessionId").asText()).isEqualTo("s");
            assertThat(report.path("branchId").asText()).startsWith("s.replay");
            assertThat(report.path("turns")).hasSize(2);
            JsonNode calc = report.path("turns").get(1);
            assertThat(calc.path("text").asText()).isEqualTo("what is (2+3)*7");
            assertThat(calc.path("replayed").path("reply").asText()).isEqualTo(calc.path("original").path("reply").asText()).contains("35");
            assertThat(calc.path("replayed").path("calls").get(0).path("how").asText()).isEqualTo("recorded");
            assertThat(http.get("/v1/sessions/" + report.path("branchId").asText()).status()).isEqualTo(200);

            int sessions = http.get("/v1/sessions").json().path("items").size();
            for (String bad : new String[] {"{}", "{\"model\":\"no-such-model\"}", "{\"model\":\"scripted\",\"fromSeq\":-1}",
                    "{\"model\":\"scripted\",\"fromSeq\":9,\"toSeq\":3}", "{\"model\":\"scripted\",\"colour\":1}",
                    "{\"model\":\"scripted\",\"fromSeq\":100000}"}) {
                Http.Response b = http.post("/v1/sessions/s/replay", bad);
                assertThat(b.status()).as(bad + " -> " + b.body()).isEqualTo(400);
                assertThat(b.json().path("field").asText()).as(bad).isNotBlank();
            }
            Http.Response keyed = Http.send(http.request("/v1/sessions/s/replay").header("Content-Type", "application/json")
                    .header("Idempotency-Key", "k1").POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"scripted\"}")).build());
            assertThat(keyed.status()).as(keyed.body()).isEqualTo(400);
            assertThat(keyed.json().path("field").asText()).isEqualTo("Idempotency-Key");
            assertThat(http.get("/v1/sessions").json().path("items")).as("bad input made no branch").hasSize(sessions);
        }
    }
}
