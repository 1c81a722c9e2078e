package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.WebhookReceiver;
import dev.threadline.server.webhooks.Signature;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks from real {@code threadline serve} processes to a receiver on loopback: a subscription made
 * with {@code threadline webhooks add}; the server SIGKILLed while a delivery is in flight and started
 * again delivers every event at least once, in seq order per session within each run, none lost; two
 * nodes on one store (a SQLite file, a PostgreSQL database, a Redis) deliver every event exactly once
 * (one node per tenant holds the delivery lease).
 * Every delivery's signature is checked.
 */
class WebhooksFromServeTest {
    private static final Set<String> DELIVERED = Set.of("SessionCreated", "BranchCreated", "TurnCompleted", "TurnInterrupted", "TurnSuspended");

    @TempDir
    Path dir;

    @Test
    void theCliAddsListsAndRemovesSubscriptions() {
        String store = "sqlite:" + dir.resolve("cli.db");
        String added = cli(0, "webhooks", "add", "http://127.0.0.1:9/hook", "--events", "turn.completed,turn.failed", "--tenant", "acme",
                "--store", store).trim();
        String id = added.split("\\s+")[0];
        assertThat(added.split("\\s+")[1]).startsWith("whsec_");
        assertThat(cli(0, "webhooks", "list", "--tenant", "acme", "--store", store)).contains(id).contains("turn.completed,turn.failed")
                .doesNotContain("whsec_");
        assertThat(cli(0, "webhooks", "list", "--tenant", "globex", "--store", store)).doesNotContain(id);
        assertThat(cli(1, "webhooks", "add", "http://127.0.0.1:9/hook", "--events", "turn.exploded", "--tenant", "acme", "--store", store))
                .isEmpty();
        assertThat(cli(1, "webhooks", "remove", id, "--tenant", "globex", "--store", store)).isEmpty();
        assertThat(cli(0, "webhooks", "remove", id, "--tenant", "acme", "--store", store)).contains("Removed " + id);
        assertThat(cli(0, "webhooks", "list", "--tenant", "acme", "--store", store)).isBlank();
    }

    @Test
    void aServerKilledMidDeliveryAndRestartedLosesNoEvent() throws Exception {
        String store = "sqlite:" + dir.resolve("kill.db");
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String key = cli(0, "keys", "create", "--tenant", "default", "--store", store).trim();
            String secret = cli(0, "webhooks", "add", receiver.url().toString(), "--store", store).trim().split("\\s+")[1];
            receiver.holdFrom(3); // the fourth delivery stays in flight
            List<String> sessions = List.of("k1", "k2", "k3");
            ServeProcess first = new ServeProcess("--store", store);
            try {
                turns(first, key, sessions, 3);
                receiver.await(d -> d.size() >= 4, Duration.ofSeconds(60));
            } finally {
                first.process.destroyForcibly(); // SIGKILL, mid-delivery
                first.process.waitFor(60, TimeUnit.SECONDS);
            }
            int beforeRestart = receiver.received().size();
            receiver.release();
            try (ServeProcess second = new ServeProcess("--store", store)) {
                turns(second, key, sessions, 1); // more events after the restart too
                Set<String> expected = expected(second, key, sessions);
                List<WebhookReceiver.Delivery> got = receiver.await(d -> ids(d).containsAll(expected), Duration.ofSeconds(120));
                assertThat(ids(got)).isEqualTo(expected); // nothing else
                verify(got, secret);
                assertInOrderPerSession(got.subList(0, beforeRestart));
                assertInOrderPerSession(got.subList(beforeRestart, got.size()));
            }
        }
    }

    @Test
    void twoNodesOnOneSqliteFileDeliverEachEventOnce() throws Exception {
        twoNodes("sqlite:" + dir.resolve("two.db"));
    }

    @Test
    void twoNodesOnOnePostgresqlDatabaseDeliverEachEventOnce() throws Exception {
        PgServer.shared().createDatabase("webhook_nodes");
        twoNodes(PgServer.shared().url("webhook_nodes"));
    }

    @Test
    void twoNodesOnOneRedisDeliverEachEventOnce() throws Exception {
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            twoNodes(redis.url());
        }
    }

    private void twoNodes(String store) throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String key = cli(0, "keys", "create", "--tenant", "default", "--store", store).trim();
            String secret = cli(0, "webhooks", "add", receiver.url().toString(), "--store", store).trim().split("\\s+")[1];
            CompletableFuture<ServeProcess> other = CompletableFuture.supplyAsync(() -> serve(store));
            try (ServeProcess node1 = serve(store); ServeProcess node2 = other.get(180, TimeUnit.SECONDS)) {
                List<String> sessions = List.of("n1", "n2", "n3", "n4");
                for (int round = 0; round < 3; round++) {
                    turns(round % 2 == 0 ? node1 : node2, key, sessions, 1);
                }
                Set<String> expected = expected(node1, key, sessions);
                List<WebhookReceiver.Delivery> got = receiver.await(d -> ids(d).containsAll(expected), Duration.ofSeconds(120));
                assertThat(got).extracting(WebhookReceiver.Delivery::id).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
                verify(got, secret);
                assertInOrderPerSession(got);
            }
        }
    }

    /** Creates the sessions on {@code node} when new, then runs {@code n} turns in each. */
    private static void turns(ServeProcess node, String key, List<String> sessions, int n) {
        for (String s : sessions) {
            node.send(key, "POST", "/v1/sessions", "{\"id\":\"" + s + "\"}"); // 201, or 409 when it exists
            for (int i = 0; i < n; i++) {
                ServeProcess.Response r = node.send(key, "POST", "/v1/sessions/" + s + "/messages", "{\"text\":\"what is " + i + "+2\"}");
                assertThat(r.status()).as(r.body()).isEqualTo(200);
            }
        }
    }

    /** The webhook ids the sessions' journals call for: every event of a delivered type. */
    private static Set<String> expected(ServeProcess node, String key, List<String> sessions) {
        Set<String> out = new LinkedHashSet<>();
        for (String s : sessions) {
            for (String line : node.send(key, "GET", "/v1/sessions/" + s + "/export", null).body().lines().toList()) {
                JsonNode e = Json.parse(line, "line");
                if (DELIVERED.contains(e.path("event").path("type").asText())) {
                    out.add(s + "/" + e.path("seq").asLong());
                }
            }
        }
        assertThat(out).hasSizeGreaterThan(sessions.size() * 2);
        return out;
    }

    private static Set<String> ids(List<WebhookReceiver.Delivery> got) {
        Set<String> out = new LinkedHashSet<>();
        got.forEach(d -> out.add(d.id()));
        return out;
    }

    private static void verify(List<WebhookReceiver.Delivery> got, String secret) {
        for (WebhookReceiver.Delivery d : got) {
            assertThat(Signature.verify(secret, d.id(), Long.parseLong(d.timestamp()), d.body(), d.signature())).as(d.id()).isTrue();
            JsonNode data = Json.parse(d.body(), "body").path("data");
            assertThat(d.id()).isEqualTo(data.path("session").asText() + "/" + data.path("seq").asLong());
        }
    }

    /** Within one run of deliveries, each session's seqs only go up (a resend after a crash repeats from the cursor). */
    private static void assertInOrderPerSession(List<WebhookReceiver.Delivery> got) {
        Map<String, List<Long>> seqs = new HashMap<>();
        for (WebhookReceiver.Delivery d : got) {
            String[] p = d.id().split("/");
            seqs.computeIfAbsent(p[0], k -> new ArrayList<>()).add(Long.parseLong(p[1]));
        }
        seqs.forEach((s, l) -> assertThat(l).as(s).isSorted());
    }

    private static ServeProcess serve(String store) {
        try {
            return new ServeProcess("--store", store);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Runs the CLI in this JVM, expecting {@code code}; returns what it printed on stdout. */
    private static String cli(int code, String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int got = Main.run(new java.io.ByteArrayInputStream(new byte[0]), new java.io.PrintWriter(out, true),
                new java.io.PrintWriter(err, true), args);
        assertThat(got).as(err.toString()).isEqualTo(code);
        return out.toString();
    }
}
