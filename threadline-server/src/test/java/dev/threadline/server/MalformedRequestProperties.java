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
 * 10,000 malformed requests over every endpoint (bad JSON, wrong types, invalid UTF-8, NUL bytes,
 * 10,000-deep nesting, huge numbers, hostile and 10,000-character ids, bad Last-Event-ID and query
 * values, unknown fields): never a 5xx, always problem+json, and the tenant's sessions and journals
 * are as they were. Bounded: no shrinking, a 10 s timeout per request.
 */
class MalformedRequestProperties {
    private static final String EXISTING = "fuzz-a";
    /** A session whose turn waits for the approval of {@link #waiting}. */
    private static final String PENDING = "fuzz-b";
    private static String waiting;
    private static final AtomicInteger SENT = new AtomicInteger();
    private static Path dir;
    private static TestServer server;
    private static Http http;
    private static String before;
    private static final AtomicInteger RETRIED = new AtomicInteger();

    record Fuzz(String method, String path, byte[] body, List<String> headers) {
        HttpRequest request() {
            HttpRequest.Builder b = http.request("/").uri(URI.create(http.base + path)).timeout(Duration.ofSeconds(10));
            for (int i = 0; i < headers.size(); i += 2) {
                b.header(headers.get(i), headers.get(i + 1));
            }
            return b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
        }

        @Override
        public String toString() {
            String shown = body == null ? "" : new String(body, 0, Math.min(body.length, 120), StandardCharsets.UTF_8);
            return method + " " + (path.length() > 160 ? path.substring(0, 160) + "…" : path) + " " + headers + " " + shown;
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("tl-fuzz");
        server = new TestServer(dir);
        http = server.http;
        http.post("/v1/sessions", "{\"id\":\"" + EXISTING + "\",\"metadata\":{\"k\":\"v\"}}");
        http.post("/v1/sessions/" + EXISTING + "/messages", "{\"text\":\"what is 2+2\"}");
        http.post("/v1/sessions", "{\"id\":\"" + PENDING + "\",\"config\":{\"requireApproval\":[\"calculate\"]}}");
        http.post("/v1/sessions/" + PENDING + "/messages", "{\"text\":\"what is 3+3\"}");
        waiting = http.get("/v1/sessions/" + PENDING + "/approvals").json().path("items").get(0).path("toolUseId").asText();
        before = snapshot();
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    @Property(tries = 10_000, generation = GenerationMode.RANDOMIZED, shrinking = ShrinkingMode.OFF)
    void noMalformedRequestFailsTheServerOrChangesState(@ForAll("malformed") Fuzz fuzz) {
        Http.Response r;
        try {
            r = Http.send(fuzz.request());
        } catch (IllegalStateException connectionLost) {
            // the server may close a connection after refusing a request whose body it did not read;
            // the client can then find the pooled connection dead: a transport matter, so send once more
            // (seen after Jetty refused a bad URI, e.g. an encoded NUL, and closed the connection)
            RETRIED.incrementAndGet();
            r = Http.send(fuzz.request());
        }
        assertThat(RETRIED.get()).as("connections lost").isLessThan(SENT.get() / 20 + 10);
        assertThat(r.status()).as(fuzz.toString()).isBetween(400, 499);
        assertThat(r.contentType()).as(fuzz + " -> " + r.status() + " " + r.body()).startsWith("application/problem+json");
        if (SENT.incrementAndGet() % 500 == 0) {
            assertThat(snapshot()).as("state after " + SENT.get() + " requests").isEqualTo(before);
        }
    }

    /** The tenant's sessions with their heads, and the fuzzed session's whole journal. */
    private static String snapshot() {
        return http.get("/v1/sessions?limit=1000").json().path("items").toString().replaceAll("\"updatedAt\":\"[^\"]*\"", "")
                + http.get("/v1/sessions/" + EXISTING + "/export").body() + http.get("/v1/sessions/" + PENDING + "/export").body();
    }

    @Provide
    Arbitrary<Fuzz> malformed() {
        return Arbitraries.oneOf(bodies(), reads(), events(), hostileIds(), humans());
    }

    /** POSTs with a body that is malformed for its endpoint, on the existing session or the collection. */
    private Arbitrary<Fuzz> bodies() {
        Arbitrary<String> path = Arbitraries.of("/v1/sessions", "/v1/sessions/" + EXISTING + "/messages", "/v1/sessions/" + EXISTING
                + "/fork", "/v1/sessions/" + EXISTING + "/rewind", "/v1/sessions/" + EXISTING + "/compact", "/v1/sessions/" + EXISTING
                + "/clear", "/v1/sessions/" + EXISTING + "/interrupt", "/v1/sessions/" + EXISTING + "/edits",
                "/v1/sessions/" + PENDING + "/approvals/" + waiting, "/v1/sessions/" + PENDING + "/answers/" + waiting,
                "/v1/sessions/" + PENDING + "/edits", "/v1/sessions/" + PENDING + "/messages");
        return Combinators.combine(path, Bad.bodies(), Bad.headers()).as((p, b, h) -> new Fuzz("POST", p, b, h));
    }

    /** GETs of the collection and the reads of the existing session with bad query values. */
    private Arbitrary<Fuzz> reads() {
        Arbitrary<String> path = Arbitraries.of("/v1/sessions?", "/v1/sessions/" + EXISTING + "/checkpoints?",
                "/v1/sessions/" + EXISTING + "?", "/v1/sessions/" + EXISTING + "/state?", "/v1/sessions/" + EXISTING + "/export?",
                "/v1/sessions/" + PENDING + "/approvals?");
        Arbitrary<Fuzz> queries = Combinators.combine(path, Bad.queries()).as((p, q) -> new Fuzz("GET", p + q, null, List.of()));
        Arbitrary<Fuzz> seqs = Arbitraries.oneOf(Bad.numbers(), Arbitraries.of("0", "999999")).map(n -> new Fuzz("GET", "/v1/sessions/" + EXISTING + "/checkpoints/" + (n.isEmpty() ? "0" : n),
                null, List.of()));
        return Arbitraries.oneOf(queries, seqs);
    }

    /** Observer streams with a bad {@code after}, {@code follow} or {@code Last-Event-ID} (a good one would stay open). */
    private Arbitrary<Fuzz> events() {
        Arbitrary<Fuzz> query = Bad.numbers().map(n -> new Fuzz("GET", "/v1/sessions/" + EXISTING + "/events?after=" + n, null, List.of()));
        Arbitrary<Fuzz> follow = Arbitraries.of("yes", "1", "TRUE", "", "%00").map(f -> new Fuzz("GET", "/v1/sessions/" + EXISTING
                + "/events?follow=" + f, null, List.of()));
        Arbitrary<Fuzz> lastId = Bad.lastEventIds().map(id -> new Fuzz("GET", "/v1/sessions/" + EXISTING + "/events", null,
                List.of("Last-Event-ID", id)));
        return Arbitraries.oneOf(query, follow, lastId);
    }

    /**
     * The human-in-the-loop routes with bodies each refused (a decision the call cannot take, an answer
     * to an approval, edits that are malformed or that the state refuses) and hostile tool_use ids.
     */
    private Arbitrary<Fuzz> humans() {
        Arbitrary<Fuzz> decisions = Bad.decisions().map(b -> new Fuzz("POST", "/v1/sessions/" + PENDING + "/approvals/" + waiting,
                b.getBytes(StandardCharsets.UTF_8), List.of()));
        Arbitrary<Fuzz> answers = Arbitraries.of("{\"text\":\"Paris\"}", "{\"text\":\"\"}", "{\"text\":5}", "{\"answer\":\"x\"}")
                .map(b -> new Fuzz("POST", "/v1/sessions/" + PENDING + "/answers/" + waiting, b.getBytes(StandardCharsets.UTF_8), List.of()));
        Arbitrary<Fuzz> edits = Combinators.combine(Arbitraries.of(EXISTING, PENDING), Bad.edits()).as((id, b) ->
                new Fuzz("POST", "/v1/sessions/" + id + "/edits", b.getBytes(StandardCharsets.UTF_8), List.of()));
        Arbitrary<Fuzz> toolIds = Combinators.combine(Bad.ids(), Arbitraries.of("approvals", "answers")).as((id, route) ->
                new Fuzz("POST", "/v1/sessions/" + PENDING + "/" + route + "/" + id, route.equals("approvals")
                        ? "{\"decision\":\"approve\"}".getBytes(StandardCharsets.UTF_8) : "{\"text\":\"x\"}".getBytes(StandardCharsets.UTF_8),
                        List.of()));
        return Arbitraries.oneOf(decisions, answers, edits, toolIds);
    }

    /** Every route on ids no session can have: traversal, encoded NUL and slashes, empty, 10,000 characters. */
    private Arbitrary<Fuzz> hostileIds() {
        Arbitrary<String> route = Arbitraries.of("GET |", "DELETE |", "GET |/state", "GET |/checkpoints", "GET |/checkpoints/1",
                "GET |/export", "GET |/events", "POST |/messages", "POST |/fork", "POST |/rewind", "POST |/compact", "POST |/clear",
                "POST |/interrupt", "GET |/nothing", "GET |/approvals", "POST |/approvals/t1", "POST |/answers/t1", "POST |/edits");
        return Combinators.combine(route, Bad.ids(), Bad.bodies()).as((r, id, body) -> {
            String[] parts = r.split(" ");
            String path = "/v1/sessions/" + id + parts[1].substring(1);
            return new Fuzz(parts[0], path, parts[0].equals("POST") ? body : null, List.of());
        });
    }
}
