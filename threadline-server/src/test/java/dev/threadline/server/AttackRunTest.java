package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack run of issue 26's acceptance: 10,000 malformed requests, written byte for byte on loopback
 * sockets, over {@code /v1}, {@code /langgraph} and {@code /openai/v1}, protocol-level garbage included
 * (bad request lines and versions, bad chunk sizes, bad escapes, wrong JSON types, huge headers,
 * bodies that are not UTF-8). None may get a 5xx; every error body is UTF-8 problem+json; the log (read
 * after the server stopped) holds no stack trace. Seeded, so a failure reproduces.
 */
class AttackRunTest {
    private static final int REQUESTS = 10_000;

    @TempDir
    Path dir;

    @Test
    void tenThousandMalformedRequestsGetNo5xxAndOnlyUtf8ProblemsAndLogNoTrace() throws Exception {
        List<String> failures = new ArrayList<>();
        String log;
        try (RawHttp.LogCapture capture = new RawHttp.LogCapture()) {
            TestServer server = new TestServer(dir);
            try {
                URI url = server.server.url();
                String key = server.http.key;
                assertThat(server.http.post("/v1/sessions", "{\"id\":\"s1\"}").status()).isEqualTo(201);
                ConcurrentLinkedQueue<String> bad = new ConcurrentLinkedQueue<>();
                AtomicInteger sent = new AtomicInteger();
                ExecutorService pool = Executors.newFixedThreadPool(4);
                try {
                    List<Future<?>> workers = new ArrayList<>();
                    for (int w = 0; w < 4; w++) {
                        int worker = w;
                        workers.add(pool.submit(() -> {
                            Random random = new Random(26 + worker);
                            for (int i = worker; i < REQUESTS; i += 4) {
                                Attack a = attack(random, i, key);
                                RawHttp.Reply r = RawHttp.exchange(url, a.head(), a.body());
                                sent.incrementAndGet();
                                String problem = check(r);
                                if (problem != null && bad.size() < 20) {
                                    bad.add(a.what() + " -> " + problem);
                                }
                            }
                        }));
                    }
                    for (Future<?> f : workers) {
                        f.get();
                    }
                } finally {
                    pool.shutdownNow();
                }
                assertThat(sent.get()).isEqualTo(REQUESTS);
                failures.addAll(bad);
            } finally {
                server.close(); // whatever it logs for these requests is written by now
            }
            log = capture.text();
        }
        assertThat(failures).as("answers that are a 5xx or not a UTF-8 problem").isEmpty();
        assertThat(log).as("the server's log").doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("ERROR");
    }

    private record Attack(String what, String head, byte[] body) {}

    private static final String[] PATHS = {"/v1/sessions", "/v1/sessions/s1", "/v1/sessions/s1/messages", "/v1/sessions/s1/events",
        "/langgraph/threads", "/langgraph/threads/search", "/langgraph/threads/s1/runs/wait", "/langgraph/assistants/search",
        "/openai/v1/conversations", "/openai/v1/conversations/s1/items", "/openai/v1/responses"};
    private static final String[] BODIES = {"{\"ids\":[1]}", "{\"metadata\":null}", "{\"subgraphs\":\"yes\"}", "{\"id\":1}", "[]",
        "{\"text\":{}}", "{\"input\":7}", "{\"items\":\"x\"}", "{\"limit\":-1}", "{\"config\":[]}", "{", "nul", "\"x\"",
        "{\"a\":" + "[".repeat(5000) + "}", "{\"id\":\"\\ud800\"}", "{\"metadata\":{\"k\":1e999}}"};

    private static Attack attack(Random random, int i, String key) {
        String path = PATHS[random.nextInt(PATHS.length)];
        String auth = random.nextInt(4) == 0 ? "" : "Authorization: Bearer " + key + "\r\n";
        String base = "Host: localhost\r\nConnection: close\r\n" + auth;
        byte[] none = new byte[0];
        switch (i % 9) {
            case 0 -> { // a request line of garbage
                byte[] junk = new byte[1 + random.nextInt(60)];
                random.nextBytes(junk);
                String line = new String(junk, StandardCharsets.ISO_8859_1).replace("\r", "").replace("\n", "");
                return new Attack("garbage request line", line + "\r\n" + base + "\r\n", none);
            }
            case 1 -> {
                String[] versions = {"", " HTTP/1.7", " HTTP/9.9", " HTTP/x", " HTTP/1.1 extra", " HTTP/", " http/1.1"};
                String v = versions[random.nextInt(versions.length)];
                return new Attack("version '" + v + "'", "GET " + path + v + "\r\n" + base + "\r\n", none);
            }
            case 2 -> {
                String[] sizes = {"zz", "-1", "fffffffffffffffffffff", "", "1;ext=\"", "0x10"};
                String size = sizes[random.nextInt(sizes.length)];
                return new Attack("chunk size '" + size + "' on " + path, "POST " + path + " HTTP/1.1\r\n" + base
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                        (size + "\r\n{}\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
            case 3 -> {
                String[] escapes = {"%u002e", "%zz", "%", "%4", "%c0%ae", "%00", "%ff%fe", "%2e%2e%2f"};
                String target = path + "/" + escapes[random.nextInt(escapes.length)];
                return new Attack("escape in " + target, (random.nextBoolean() ? "GET " : "DELETE ") + target + " HTTP/1.1\r\n" + base + "\r\n", none);
            }
            case 4, 5 -> {
                byte[] body = BODIES[random.nextInt(BODIES.length)].getBytes(StandardCharsets.UTF_8);
                return new Attack("body " + new String(body, StandardCharsets.UTF_8).substring(0, Math.min(40, body.length)) + " on " + path,
                        "POST " + path + " HTTP/1.1\r\n" + base + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n", body);
            }
            case 6 -> {
                String header = random.nextBoolean() ? "X-Big: " + "a".repeat(20_000 + random.nextInt(20_000)) + "\r\n"
                        : "X-Many: a\r\n".repeat(2_000);
                return new Attack("huge headers on " + path, "GET " + path + " HTTP/1.1\r\n" + base + header + "\r\n", none);
            }
            case 7 -> {
                byte[][] bodies = {"{}".getBytes(StandardCharsets.UTF_16), "{}".getBytes(StandardCharsets.UTF_16LE),
                    {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'}, {'{', '"', 'a', '"', ':', '"', (byte) 0xFC, '"', '}'},
                    {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'}};
                byte[] body = bodies[random.nextInt(bodies.length)];
                return new Attack("non-UTF-8 body on " + path, "POST " + path + " HTTP/1.1\r\n" + base
                        + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n", body);
            }
            default -> {
                String[] heads = {"CONNECT localhost:80 HTTP/1.1\r\n" + base + "\r\n",
                    "GET " + path + " HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n" + auth + "\r\n",
                    "POST " + path + " HTTP/1.1\r\n" + base + "Content-Length: 99999999\r\n\r\n",
                    "POST " + path + " HTTP/1.1\r\n" + base + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n",
                    "GET " + path + " HTTP/1.1\r\n" + base + "Bad Header\r\n\r\n"};
                return new Attack("odd head on " + path, heads[random.nextInt(heads.length)], none);
            }
        }
    }

    /** Why {@code r} is not an acceptable answer to a malformed request, or null. */
    private static String check(RawHttp.Reply r) {
        if (r.status() >= 500) {
            return r.status() + " " + r.text();
        }
        if (r.status() >= 400 && r.body().length > 0) {
            if (!r.contentType().startsWith("application/problem+json")) {
                return "content type " + r.contentType() + ": " + r.text();
            }
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(r.body()));
            } catch (CharacterCodingException e) {
                return "a body that is not UTF-8";
            }
            if (!r.text().contains("\"status\":" + r.status())) {
                return "not a problem: " + r.text();
            }
        }
        return null;
    }
}
