package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Turns streamed as SSE, and observers that follow and resume a session from the journal. */
class StreamingTest {
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
    void aStreamedTurnSendsEachCommittedEventWithItsSeqThenTheResult() throws Exception {
        http.post("/v1/sessions", "{\"id\":\"sse-1\"}");
        long before = http.get("/v1/sessions/sse-1/state").json().path("seq").asLong();
        HttpResponse<InputStream> res = http.stream(http.request("/v1/sessions/sse-1/messages")
                .header("Accept", "text/event-stream").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"what is (2+3)*4\"}")).build());
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        List<Http.Sse> all = Http.readEvents(res.body(), l -> false);
        assertThat(all).extracting(Http.Sse::event).contains("delta"); // the model's text as it streams (HumanInTheLoopTest checks them)
        List<Http.Sse> events = all.stream().filter(e -> !e.event().equals("delta")).toList();

        Http.Sse last = events.getLast();
        assertThat(last.event()).isEqualTo("result");
        assertThat(last.id()).isNull();
        assertThat(last.json().path("reply").asText()).contains("20");
        List<Http.Sse> journal = events.subList(0, events.size() - 1);
        assertThat(journal).isNotEmpty();
        for (int i = 0; i < journal.size(); i++) {
            assertThat(Long.parseLong(journal.get(i).id())).isEqualTo(before + 1 + i); // no gaps, from right after the submit
            assertThat(journal.get(i).json().path("seq").asLong()).isEqualTo(before + 1 + i);
        }
        assertThat(journal.getFirst().event()).isEqualTo("UserMessageReceived");
        assertThat(journal.getLast().event()).isEqualTo("TurnCompleted");
        assertThat(Long.parseLong(journal.getLast().id())).isEqualTo(last.json().path("seq").asLong());

        String exported = http.get("/v1/sessions/sse-1/export").body();
        for (Http.Sse e : journal) {
            assertThat(exported).contains(e.data()); // the stream is the journal, byte for byte
        }
    }

    @Test
    void anObserverSeesTurnsAsTheyAreCommittedAndResumesAfterLastEventId() throws Exception {
        http.post("/v1/sessions", "{\"id\":\"obs-1\"}");
        long head = http.post("/v1/sessions/obs-1/messages", "{\"text\":\"hello\"}").json().path("seq").asLong();
        var pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            CompletableFuture<List<Http.Sse>> observed = CompletableFuture.supplyAsync(() -> {
                HttpResponse<InputStream> res = http.stream(http.request("/v1/sessions/obs-1/events?after=" + head).GET().build());
                try {
                    return Http.readEvents(res.body(), l -> l.getLast().event().equals("TurnCompleted"));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, pool);
            long end = http.post("/v1/sessions/obs-1/messages", "{\"text\":\"what is 6*7\"}").json().path("seq").asLong();
            List<Http.Sse> seen = observed.get(30, TimeUnit.SECONDS);
            assertThat(seen.getFirst().id()).isEqualTo(Long.toString(head + 1));
            assertThat(seen.getLast().id()).isEqualTo(Long.toString(end));

            // Last-Event-ID wins over after= and resumes exactly after it
            HttpResponse<InputStream> resumed = http.stream(http.request("/v1/sessions/obs-1/events?after=0&follow=false")
                    .header("Last-Event-ID", Long.toString(head + 1)).GET().build());
            List<Http.Sse> rest = Http.readEvents(resumed.body(), l -> false);
            assertThat(rest.getFirst().id()).isEqualTo(Long.toString(head + 2));
            assertThat(rest.getLast().id()).isEqualTo(Long.toString(end));
            assertThat(rest).hasSize((int) (end - head - 1));
        } finally {
            pool.shutdownNow();
        }
        Http.Response bad = http.get("/v1/sessions/obs-1/events?after=-1");
        assertThat(bad.status()).isEqualTo(400);
        HttpResponse<InputStream> badId = http.stream(http.request("/v1/sessions/obs-1/events")
                .header("Last-Event-ID", "x1").GET().build());
        assertThat(badId.statusCode()).isEqualTo(400);
        badId.body().close();
    }

    @Test
    void idempotencyKeysReplayTheFirstResultAndRefuseAnotherBody() {
        http.post("/v1/sessions", "{\"id\":\"idem-1\"}");
        Http.Response first = http.post("/v1/sessions/idem-1/messages", "{\"text\":\"what is 2+2\"}", "Idempotency-Key", "k-1");
        long head = http.get("/v1/sessions/idem-1/state").json().path("seq").asLong();
        Http.Response again = http.post("/v1/sessions/idem-1/messages", "{\"text\":\"what is 2+2\"}", "Idempotency-Key", "k-1");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json()).isEqualTo(first.json());
        assertThat(http.get("/v1/sessions/idem-1/state").json().path("seq").asLong()).isEqualTo(head);

        Http.Response conflict = http.post("/v1/sessions/idem-1/messages", "{\"text\":\"what is 3+3\"}", "Idempotency-Key", "k-1");
        assertThat(conflict.status()).isEqualTo(422);
        assertThat(conflict.json().path("field").asText()).isEqualTo("Idempotency-Key");
        assertThat(http.get("/v1/sessions/idem-1/state").json().path("seq").asLong()).isEqualTo(head);

        // creates without an id: the key names the session, so a retry finds it
        Http.Response c1 = http.post("/v1/sessions", "{\"userId\":\"u1\"}", "Idempotency-Key", "create-1");
        Http.Response c2 = http.post("/v1/sessions", "{\"userId\":\"u1\"}", "Idempotency-Key", "create-1");
        assertThat(c2.json().path("id")).isEqualTo(c1.json().path("id"));
        assertThat(http.post("/v1/sessions", "{\"userId\":\"u2\"}", "Idempotency-Key", "create-1").status()).isEqualTo(422);
        // a key that created one id never creates another
        assertThat(http.post("/v1/sessions", "{\"id\":\"idem-c1\"}", "Idempotency-Key", "create-2").status()).isEqualTo(201);
        assertThat(http.post("/v1/sessions", "{\"id\":\"idem-c1\"}", "Idempotency-Key", "create-2").status()).isEqualTo(201);
        assertThat(http.post("/v1/sessions", "{\"id\":\"idem-c2\"}", "Idempotency-Key", "create-2").status()).isEqualTo(422);
        assertThat(http.get("/v1/sessions/idem-c2").status()).isEqualTo(404);

        long forkHead = http.get("/v1/sessions/idem-1/checkpoints").json().path("items").get(1).path("seq").asLong();
        Http.Response f1 = http.post("/v1/sessions/idem-1/fork", "{\"seq\":" + forkHead + "}", "Idempotency-Key", "fork-1");
        Http.Response f2 = http.post("/v1/sessions/idem-1/fork", "{\"seq\":" + forkHead + "}", "Idempotency-Key", "fork-1");
        assertThat(f2.json().path("id")).isEqualTo(f1.json().path("id"));
        assertThat(http.post("/v1/sessions/idem-1/clear", "", "Idempotency-Key", "fork-1").status()).isEqualTo(422);
    }
}
