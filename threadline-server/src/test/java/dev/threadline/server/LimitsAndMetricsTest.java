package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits that answer 429 with Retry-After (sessions per tenant, SSE streams per tenant, events per
 * turn), each refusal changing nothing else, and the meters they and ordinary traffic move.
 */
class LimitsAndMetricsTest {
    @TempDir
    static Path dir;
    static TestServer server;

    @BeforeAll
    static void start() {
        Limits limits = Limits.DEFAULT.withMaxSessionsPerTenant(3).withMaxSseStreamsPerTenant(1).withMaxEventsPerTurn(2);
        server = new TestServer(ServerConfig.of(dir.resolve("limits.db")).withPort(0).withLimits(limits)
                .withModels(TestModels.resolver()).withSkills(TestModels.skills()).withHeartbeat(Duration.ofMillis(200)));
    }

    @AfterAll
    static void stop() {
        TestModels.resetGate();
        server.close();
    }

    private static void assert429(Http.Response r, String kind) {
        assertThat(r.status()).as(r.body()).isEqualTo(429);
        assertThat(r.json().path("type").asText()).endsWith("/" + kind);
        assertThat(r.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void aTenantPastItsSessionLimitGets429AndNothingIsCreatedWhileOtherTenantsGoOn() {
        Http acme = server.tenant("acme");
        for (int i = 0; i < 3; i++) {
            assertThat(acme.post("/v1/sessions", "{\"id\":\"a" + i + "\"}").status()).isEqualTo(201);
        }
        assert429(acme.post("/v1/sessions", "{\"id\":\"a3\"}"), "too-many-sessions");
        assert429(acme.post("/v1/sessions/a0/fork", "{\"seq\":1}"), "too-many-sessions");
        assertThat(acme.get("/v1/sessions/a3").status()).isEqualTo(404);
        assertThat(acme.get("/v1/sessions").json().path("items")).hasSize(3);
        assertThat(server.tenant("globex").post("/v1/sessions", "{\"id\":\"a3\"}").status()).isEqualTo(201);
        assertThat(acme.delete("/v1/sessions/a2").status()).isEqualTo(204);
        assertThat(acme.post("/v1/sessions", "{\"id\":\"a3\"}").status()).isEqualTo(201);
    }

    @Test
    void aSecondStreamOfOneTenantGets429UntilTheFirstCloses() throws Exception {
        Http initech = server.tenant("initech");
        assertThat(initech.post("/v1/sessions", "{\"id\":\"i1\"}").status()).isEqualTo(201);
        HttpResponse<InputStream> first = initech.stream(initech.request("/v1/sessions/i1/events").GET().build());
        assertThat(first.statusCode()).isEqualTo(200);
        first.body().read(); // the stream is open (its first comment line arrived)
        assert429(initech.get("/v1/sessions/i1/events?follow=false"), "too-many-streams");
        assert429(Http.send(initech.request("/v1/sessions/i1/messages").header("Accept", "text/event-stream")
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"text\":\"hi\"}"))
                .build()), "too-many-streams");
        assertThat(initech.get("/v1/sessions/i1/state").json().path("seq").asLong()).as("the refused turn never ran").isEqualTo(1);
        assertThat(server.tenant("hooli").post("/v1/sessions", "{\"id\":\"h1\"}").status()).isEqualTo(201);
        assertThat(server.tenant("hooli").get("/v1/sessions/h1/events?follow=false").status()).as("per tenant").isEqualTo(200);
        first.body().close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // the server sees the client gone at its next heartbeat
        int status;
        do {
            status = initech.get("/v1/sessions/i1/events?follow=false").status();
        } while (status == 429 && System.nanoTime() < deadline);
        assertThat(status).isEqualTo(200);
    }

    @Test
    void aTurnPastTheEventsLimitIsInterruptedAndAnswers429() throws Exception {
        Http umbrella = server.tenant("umbrella");
        assertThat(umbrella.post("/v1/sessions", "{\"id\":\"u1\",\"config\":{\"model\":\"gate\"}}").status()).isEqualTo(201);
        Http.Response r = umbrella.post("/v1/sessions/u1/messages", "{\"text\":\"gate\"}"); // 3 events by the gate: past 2
        assert429(r, "too-many-events");
        assertThat(umbrella.get("/v1/sessions/u1/state").json().path("status").asText()).isEqualTo("idle");
        assertThat(umbrella.get("/v1/sessions/u1/export").body()).contains("TurnInterrupted");

        String metrics = server.http.as(null).get("/metrics").body();
        assertThat(metrics).contains("threadline_limits_refused_total{limit=\"too-many-events\"}")
                .contains("threadline_model_latency_seconds_count{model=\"scripted\"}")
                .contains("threadline_fencing_refusals_total").contains("threadline_commands_queued")
                .contains("threadline_sse_streams_open").contains("threadline_steps_total").contains("threadline_events_appended_total");
    }

    @Test
    void toolLatencyAndConflictsAreMetered() {
        Http wayne = server.tenant("wayne");
        assertThat(wayne.post("/v1/sessions", "{\"id\":\"w1\",\"config\":{\"model\":\"gate\"}}").status()).isEqualTo(201);
        assertThat(wayne.post("/v1/sessions", "{\"id\":\"w1\"}").status()).isEqualTo(409);
        // the call starts (and ends, run or cancelled by the events limit): its latency is metered either way
        assertThat(wayne.post("/v1/sessions/w1/messages", "{\"text\":\"pay\"}").status()).isEqualTo(429);
        String metrics = server.http.as(null).get("/metrics").body();
        assertThat(metrics).contains("threadline_conflicts_total{kind=\"session-exists\"}")
                .contains("threadline_tool_latency_seconds_count{tool=\"pay\"}");
    }
}
