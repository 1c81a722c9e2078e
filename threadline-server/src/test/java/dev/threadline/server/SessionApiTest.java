package dev.threadline.server;

import dev.threadline.core.export.ExportLines;
import dev.threadline.core.json.Json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session routes against a real server on loopback: create, list, read, branch, maintain, delete. */
class SessionApiTest {
    @TempDir
    static Path dir;
    static TestServer server;
    static Http http;

    @BeforeAll
    static void start() {
        server = new TestServer(dir);
        http = server.http;
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void createsGetsListsAndDeletes() {
        Http.Response created = http.post("/v1/sessions",
                "{\"id\":\"crud-1\",\"userId\":\"ana\",\"metadata\":{\"team\":\"red\"},\"config\":{\"systemPrompt\":\"be brief\"}}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValue("/v1/sessions/crud-1");
        assertThat(created.json().path("userId").asText()).isEqualTo("ana");
        assertThat(created.json().path("config").path("systemPrompt").asText()).isEqualTo("be brief");
        http.post("/v1/sessions", "{\"id\":\"crud-2\",\"userId\":\"bo\",\"metadata\":{\"team\":\"blue\"}}");
        http.post("/v1/sessions", "{\"id\":\"crud-3\",\"userId\":\"ana\",\"metadata\":{\"team\":\"blue\"}}");

        assertThat(http.get("/v1/sessions/crud-1").json().path("id").asText()).isEqualTo("crud-1");
        assertThat(ids(http.get("/v1/sessions?user=ana"))).contains("crud-1", "crud-3").doesNotContain("crud-2");
        assertThat(ids(http.get("/v1/sessions?metadata.team=blue"))).contains("crud-2", "crud-3").doesNotContain("crud-1");
        assertThat(ids(http.get("/v1/sessions?user=ana&metadata.team=blue"))).containsExactly("crud-3");

        JsonNode page = http.get("/v1/sessions?limit=1&metadata.team=blue").json();
        assertThat(page.path("items")).hasSize(1);
        String next = page.path("nextCursor").asText();
        JsonNode page2 = http.get("/v1/sessions?limit=1&metadata.team=blue&cursor=" + java.net.URLEncoder.encode(next,
                java.nio.charset.StandardCharsets.UTF_8)).json();
        assertThat(page2.path("items").get(0).path("id").asText()).isNotEqualTo(page.path("items").get(0).path("id").asText());

        assertThat(http.post("/v1/sessions", "{\"id\":\"crud-1\"}").status()).isEqualTo(409);
        assertThat(http.delete("/v1/sessions/crud-2").status()).isEqualTo(204);
        assertThat(http.get("/v1/sessions/crud-2").status()).isEqualTo(404);
        assertThat(http.delete("/v1/sessions/crud-2").status()).isEqualTo(404);
    }

    @Test
    void runsATurnAndReadsStateCheckpointsAndExport() {
        http.post("/v1/sessions", "{\"id\":\"turns-1\"}");
        Http.Response turn = http.post("/v1/sessions/turns-1/messages", "{\"text\":\"what is (2+3)*4\"}");
        assertThat(turn.status()).isEqualTo(200);
        assertThat(turn.json().path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(turn.json().path("reply").asText()).contains("20");
        long seq = turn.json().path("seq").asLong();

        JsonNode state = http.get("/v1/sessions/turns-1/state").json();
        assertThat(state.path("seq").asLong()).isEqualTo(seq);
        assertThat(state.path("messages").size()).isGreaterThanOrEqualTo(2);

        JsonNode cps = http.get("/v1/sessions/turns-1/checkpoints?limit=2").json();
        assertThat(cps.path("items")).hasSize(2);
        JsonNode rest = http.get("/v1/sessions/turns-1/checkpoints?cursor=" + cps.path("nextCursor").asText()).json();
        assertThat(rest.path("items").get(0).path("seq").asLong()).isGreaterThan(cps.path("items").get(1).path("seq").asLong());
        assertThat(http.get("/v1/sessions/turns-1/checkpoints/1").json().path("messages")).isEmpty();

        Http.Response export = http.get("/v1/sessions/turns-1/export");
        assertThat(export.contentType()).startsWith("application/x-ndjson");
        String[] lines = export.body().split("\n");
        assertThat(lines).hasSize((int) seq);
        assertThat(lines[0]).contains("\"seq\":1").contains("SessionCreated");
    }

    /**
     * Issue 26, item 8: the HTTP export said {@code "v":2} while {@code threadline sessions export} said
     * {@code "v":3} for the same events, so a line exported over HTTP was read back through the version 2
     * upgrades. Both write {@link ExportLines} now: the version this release writes, read back unchanged.
     */
    @Test
    void anHttpExportIsTheCliExportsLineFormatWithTheCurrentVersion() {
        http.post("/v1/sessions", "{\"id\":\"export-v\"}");
        http.post("/v1/sessions/export-v/messages", "{\"text\":\"what is 6*7\"}");
        String[] lines = http.get("/v1/sessions/export-v/export").body().split("\n");
        assertThat(lines).hasSizeGreaterThan(2);
        for (String line : lines) {
            JsonNode json = Json.parse(line, "export line");
            assertThat(json.path("v").asInt()).as(line).isEqualTo(ExportLines.VERSION);
            assertThat(ExportLines.of(ExportLines.read(json)).toString()).as("read back unchanged").isEqualTo(line);
        }
    }

    @Test
    void forksRewindsCompactsClearsAndInterrupts() {
        http.post("/v1/sessions", "{\"id\":\"br-1\"}");
        http.post("/v1/sessions/br-1/messages", "{\"text\":\"hello there\"}");
        long head = http.post("/v1/sessions/br-1/messages", "{\"text\":\"what is 6*7\"}").json().path("seq").asLong();
        long first = http.get("/v1/sessions/br-1/checkpoints").json().path("items").get(2).path("seq").asLong();

        Http.Response fork = http.post("/v1/sessions/br-1/fork", "{\"seq\":" + first + ",\"id\":\"br-1-fork\"}");
        assertThat(fork.status()).isEqualTo(201);
        assertThat(fork.json().path("parentId").asText()).isEqualTo("br-1");
        assertThat(http.get("/v1/sessions/br-1-fork/state").json().path("seq").asLong()).isGreaterThan(first);

        Http.Response rewind = http.post("/v1/sessions/br-1/rewind", "{\"seq\":" + first + "}");
        assertThat(rewind.status()).isEqualTo(201);
        assertThat(rewind.json().path("id").asText()).startsWith("br-1.r");
        assertThat(http.get("/v1/sessions/br-1/state").json().path("seq").asLong()).isEqualTo(head);

        assertThat(http.post("/v1/sessions/br-1/compact", "{\"focus\":\"numbers\"}").json().path("compacted").asBoolean()).isTrue();
        assertThat(http.post("/v1/sessions/br-1/clear", "").status()).isEqualTo(200);
        Http.Response interrupt = http.post("/v1/sessions/br-1/interrupt", "");
        assertThat(interrupt.json().path("interrupted").asBoolean()).isFalse();

        assertThat(http.post("/v1/sessions/br-1/fork", "{\"seq\":999999}").status()).isEqualTo(400);
    }

    @Test
    void opsRoutesAnswerWithoutAKey() {
        Http anonymous = http.as(null);
        assertThat(anonymous.get("/health").status()).isEqualTo(200);
        assertThat(anonymous.get("/ready").status()).isEqualTo(200);
        assertThat(anonymous.get("/openapi.json").status()).isEqualTo(200);
        http.post("/v1/sessions", "{\"id\":\"metrics-1\"}");
        http.post("/v1/sessions/metrics-1/messages", "{\"text\":\"hi\"}");
        String metrics = anonymous.get("/metrics").body();
        assertThat(metrics).contains("threadline_turns_total{outcome=\"completed\"}", "threadline_steps_total",
                "threadline_events_appended_total", "threadline_sse_streams_open", "http_server_requests_seconds_count");
    }

    @Test
    void refusesWithProblemJson() {
        Http.Response noKey = http.as(null).get("/v1/sessions");
        assertThat(noKey.status()).isEqualTo(401);
        assertThat(noKey.contentType()).startsWith("application/problem+json");
        assertThat(noKey.headers().firstValue("WWW-Authenticate")).isPresent();
        assertThat(http.as("tl_nope").get("/v1/sessions").status()).isEqualTo(401);

        JsonNode bad = http.post("/v1/sessions", "{\"id\":5}").json();
        assertThat(bad.path("status").asInt()).isEqualTo(400);
        assertThat(bad.path("field").asText()).isEqualTo("id");
        assertThat(bad.path("type").asText()).endsWith("/invalid-input");
        assertThat(bad.path("title").asText()).isNotBlank();
        assertThat(http.post("/v1/sessions", "{\"idd\":\"x\"}").json().path("field").asText()).isEqualTo("idd");
        assertThat(http.post("/v1/sessions", "{\"config\":{\"maxIterations\":\"9\"}}").json().path("field").asText())
                .isEqualTo("config.maxIterations");
        assertThat(http.get("/v1/nothing").status()).isEqualTo(404);
        assertThat(http.get("/v1/nothing").contentType()).startsWith("application/problem+json");
        assertThat(http.as(null).get("/nothing").contentType()).startsWith("application/problem+json");

        http.post("/v1/sessions", "{\"id\":\"limits-1\"}");
        Http.Response tooLong = http.post("/v1/sessions/limits-1/messages", "{\"text\":\"" + "a".repeat(100_001) + "\"}");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().path("field").asText()).isEqualTo("text");
        Http.Response tooBig = http.post("/v1/sessions/limits-1/messages", "{\"text\":\"" + "a".repeat(2 << 20) + "\"}");
        assertThat(tooBig.status()).isEqualTo(413);
        assertThat(tooBig.contentType()).startsWith("application/problem+json");
    }

    static java.util.List<String> ids(Http.Response r) {
        java.util.List<String> out = new java.util.ArrayList<>();
        r.json().path("items").forEach(i -> out.add(i.path("id").asText()));
        return out;
    }
}
