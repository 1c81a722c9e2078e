package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * 2,000 malformed requests over every endpoint of the compatible surfaces ({@code /langgraph},
 * {@code /openai/v1}), with the generators of {@link MalformedRequestProperties}: never a 5xx, always
 * problem+json, and the tenant's sessions and the two fuzzed sessions' journals are as they were.
 */
class CompatMalformedRequestProperties {
    private static final String THREAD = "fuzz-thread";
    private static final String CONV = "fuzz-conv";
    private static final AtomicInteger SENT = new AtomicInteger();
    private static final AtomicInteger RETRIED = new AtomicInteger();
    private static TestServer server;
    private static Http http;
    private static String before;

    record Fuzz(String method, String path, byte[] body) {
        HttpRequest request() {
            HttpRequest.Builder b = http.request("/").uri(URI.create(http.base + path)).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json");
            return b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
        }

        @Override
        public String toString() {
            String shown = body == null ? "" : new String(body, 0, Math.min(body.length, 120), StandardCharsets.UTF_8);
            return method + " " + (path.length() > 160 ? path.substring(0, 160) + "…" : path) + " " + shown;
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("tl-compat-fuzz");
        server = new TestServer(dir);
        http = server.http;
        assertThat(http.post("/langgraph/threads", "{\"thread_id\":\"" + THREAD + "\"}").status()).isEqualTo(200);
        assertThat(http.post("/langgraph/threads/" + THREAD + "/runs/wait",
                "{\"assistant_id\":\"default\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"what is 2+2\"}]}}").status())
                .isEqualTo(200);
        assertThat(http.post("/v1/sessions", "{\"id\":\"" + CONV + "\"}").status()).isEqualTo(201);
        assertThat(http.post("/openai/v1/conversations/" + CONV + "/items", "{\"items\":[{\"role\":\"user\",\"content\":\"hi\"}]}").status())
                .isEqualTo(200);
        before = snapshot();
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    @Property(tries = 2_000, generation = GenerationMode.RANDOMIZED, shrinking = ShrinkingMode.OFF)
    void noMalformedRequestFailsTheServerOrChangesState(@ForAll("malformed") Fuzz fuzz) {
        Http.Response r;
        try {
            r = Http.send(fuzz.request());
        } catch (IllegalStateException connectionLost) {
            RETRIED.incrementAndGet(); // as in MalformedRequestProperties: a connection Jetty closed after a refusal
            r = Http.send(fuzz.request());
        }
        assertThat(RETRIED.get()).as("connections lost").isLessThan(SENT.get() / 20 + 10);
        assertThat(r.status()).as(fuzz.toString()).isBetween(400, 499);
        assertThat(r.contentType()).as(fuzz + " -> " + r.status() + " " + r.body()).startsWith("application/problem+json");
        if (SENT.incrementAndGet() % 500 == 0) {
            assertThat(snapshot()).as("state after " + SENT.get() + " requests").isEqualTo(before);
        }
    }

    private static String snapshot() {
        return http.get("/v1/sessions?limit=1000").json().path("items").toString().replaceAll("\"updatedAt\":\"[^\"]*\"", "")
                + http.get("/v1/sessions/" + THREAD + "/export").body() + http.get("/v1/sessions/" + CONV + "/export").body();
    }

    @Provide
    Arbitrary<Fuzz> malformed() {
        return Arbitraries.oneOf(bodies(), reads(), hostileIds());
    }

    private Arbitrary<Fuzz> bodies() {
        String t = "/langgraph/threads/" + THREAD;
        String c = "/openai/v1/conversations/" + CONV;
        Arbitrary<String> path = Arbitraries.of("/langgraph/threads", "/langgraph/threads/search", "/langgraph/assistants",
                t + "/state", t + "/state/checkpoint", t + "/history", t + "/runs/wait", t + "/runs/stream",
                "/openai/v1/conversations", c, c + "/items");
        return Combinators.combine(path, Bad.bodies()).as((p, b) -> new Fuzz("POST", p, b));
    }

    private Arbitrary<Fuzz> reads() {
        String t = "/langgraph/threads/" + THREAD;
        String c = "/openai/v1/conversations/" + CONV;
        Arbitrary<String> path = Arbitraries.of(t + "?", t + "/state?", "/langgraph/assistants/default?", c + "?", c + "/items?",
                c + "/items/msg_0?");
        Arbitrary<Fuzz> queries = Combinators.combine(path, Bad.queries()).as((p, q) -> new Fuzz("GET", p + q, null));
        Arbitrary<Fuzz> seqs = Arbitraries.oneOf(Bad.numbers(), Arbitraries.of("0", "999999"))
                .map(n -> new Fuzz("GET", t + "/state/" + (n.isEmpty() ? "0" : n), null));
        return Arbitraries.oneOf(queries, seqs);
    }

    private Arbitrary<Fuzz> hostileIds() {
        Arbitrary<String> route = Arbitraries.of("GET /langgraph/threads/|", "DELETE /langgraph/threads/|",
                "GET /langgraph/threads/|/state", "POST /langgraph/threads/|/state", "POST /langgraph/threads/|/history",
                "POST /langgraph/threads/|/runs/wait", "POST /langgraph/threads/|/runs/stream", "GET /langgraph/assistants/|",
                "GET /openai/v1/conversations/|", "POST /openai/v1/conversations/|", "DELETE /openai/v1/conversations/|",
                "GET /openai/v1/conversations/|/items", "POST /openai/v1/conversations/|/items",
                "GET /openai/v1/conversations/" + CONV + "/items/|", "DELETE /openai/v1/conversations/|/items/msg_0");
        return Combinators.combine(route, Bad.ids(), Bad.bodies()).as((r, id, body) -> {
            String[] parts = r.split(" ");
            return new Fuzz(parts[0], parts[1].replace("|", id), parts[0].equals("POST") ? body : null);
        });
    }
}
