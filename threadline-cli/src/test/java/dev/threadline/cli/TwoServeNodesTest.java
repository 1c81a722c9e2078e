package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code threadline serve} processes on one store — a SQLite file, a PostgreSQL database, a Redis —
 * serve the same session: a client that alternates between them sees one linear history, an SSE
 * observer on node 2 sees node 1's turns, and a key made with {@code threadline keys create --store}
 * while they run works on both and is refused by both once revoked (the keys are in the store).
 */
class TwoServeNodesTest {
    private static final int TURNS = 6;

    @TempDir
    Path dir;

    @Test
    void twoNodesOnOneSqliteFile() throws Exception {
        twoNodes("sqlite:" + dir.resolve("shared.db"));
    }

    @Test
    void twoNodesOnOnePostgresqlDatabase() throws Exception {
        PgServer.shared().createDatabase("serve_nodes");
        twoNodes(PgServer.shared().url("serve_nodes"));
    }

    @Test
    void twoNodesOnOneRedis() throws Exception {
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            twoNodes(redis.url());
        }
    }

    private void twoNodes(String store) throws Exception {
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        // a key made in the store before the nodes start: neither makes one, so they can start together
        String key = cli("keys", "create", "--tenant", "default", "--store", store).trim();
        CompletableFuture<ServeProcess> second = CompletableFuture.supplyAsync(() -> serve(store), pool);
        try (ServeProcess node1 = serve(store); ServeProcess node2 = second.get(180, TimeUnit.SECONDS)) {
            assertThat(node1.createdKey).isNull();
            assertThat(node2.createdKey).isNull();
            String acme = cli("keys", "create", "--tenant", "acme", "--store", store).trim();
            for (ServeProcess node : List.of(node1, node2)) {
                assertThat(node.send(acme, "POST", "/v1/sessions", "{\"id\":\"acme-" + node.url.getPort() + "\"}").status())
                        .isEqualTo(201);
            }
            String acmeId = cli("keys", "list", "--store", store).lines().filter(l -> l.contains("acme")).findFirst().orElseThrow()
                    .split("\\s+")[0];
            cli("keys", "revoke", acmeId, "--store", store);
            for (ServeProcess node : List.of(node1, node2)) {
                assertThat(node.send(acme, "GET", "/v1/sessions", null).status()).isEqualTo(401);
            }
            assertThat(node1.send(key, "POST", "/v1/sessions", "{\"id\":\"shared\"}").status()).isEqualTo(201);
            long start = node2.send(key, "GET", "/v1/sessions/shared/state", null).json().path("seq").asLong();

            // an observer on node 2, from the session's current head, until it has seen node 1's turns
            CompletableFuture<List<String>> observed = CompletableFuture.supplyAsync(() -> observe(node2, key, start, TURNS / 2), pool);

            List<Long> heads = new ArrayList<>();
            for (int i = 0; i < TURNS; i++) {
                ServeProcess node = i % 2 == 0 ? node1 : node2;
                ServeProcess.Response r = node.send(key, "POST", "/v1/sessions/shared/messages", "{\"text\":\"what is " + i + "+1\"}");
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                assertThat(r.json().path("reply").asText()).contains(Integer.toString(i + 1));
                heads.add(r.json().path("seq").asLong());
            }
            assertThat(heads).isSorted().doesNotHaveDuplicates();

            for (ServeProcess node : List.of(node1, node2)) {
                String export = node.send(key, "GET", "/v1/sessions/shared/export", null).body();
                List<JsonNode> lines = export.lines().map(l -> Json.parse(l, "line")).toList();
                for (int i = 0; i < lines.size(); i++) {
                    assertThat(lines.get(i).path("seq").asLong()).isEqualTo(i + 1); // one history, no gaps, no forks
                }
                List<String> asked = lines.stream().filter(l -> l.path("event").path("type").asText().equals("UserMessageReceived"))
                        .map(l -> l.path("event").path("message").path("content").get(0).path("text").asText()).toList();
                assertThat(asked).containsExactly("what is 0+1", "what is 1+1", "what is 2+1", "what is 3+1", "what is 4+1",
                        "what is 5+1");
                assertThat(lines.getLast().path("seq").asLong()).isEqualTo(heads.getLast());
            }

            List<String> seen = observed.get(60, TimeUnit.SECONDS);
            assertThat(seen).contains("what is 0+1", "what is 2+1"); // node 1's turns, seen through node 2
        } finally {
            pool.shutdownNow();
        }
    }

    private static ServeProcess serve(String store) {
        try {
            return new ServeProcess("--store", store);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String cli(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.run(new java.io.ByteArrayInputStream(new byte[0]), new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(err, true), args);
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }

    /** Follows the session's events on {@code node} and returns the user texts, once it has seen {@code turns} turns end. */
    private static List<String> observe(ServeProcess node, String key, long after, int turns) {
        HttpRequest req = HttpRequest.newBuilder(node.url.resolve("/v1/sessions/shared/events?after=" + after))
                .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(60)).GET().build();
        List<String> texts = new ArrayList<>();
        try {
            HttpResponse<InputStream> res = ServeProcess.CLIENT.send(req, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(res.statusCode()).isEqualTo(200);
            int ended = 0;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
                String line;
                while (ended < turns && (line = r.readLine()) != null) {
                    if (!line.startsWith("data: ")) {
                        continue;
                    }
                    JsonNode e = Json.parse(line.substring(6), "data").path("event");
                    switch (e.path("type").asText()) {
                        case "UserMessageReceived" -> texts.add(e.path("message").path("content").get(0).path("text").asText());
                        case "TurnCompleted" -> ended++;
                        default -> { }
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return texts;
    }
}
