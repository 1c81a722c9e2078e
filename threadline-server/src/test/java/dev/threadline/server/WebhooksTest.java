package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.harness.servers.WebhookReceiver;
import dev.threadline.server.webhooks.Failure;
import dev.threadline.server.webhooks.Signature;
import dev.threadline.server.webhooks.Subscription;
import dev.threadline.server.webhooks.WebhookEvents;
import dev.threadline.server.webhooks.WebhookSettings;
import dev.threadline.server.webhooks.Webhooks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhooks in one process: subscriptions over HTTP (bad input refused, another tenant's like an unknown
 * one), every subscribed event delivered signed the Standard Webhooks way and in seq order per session,
 * and a receiver that answers 500 sees retries spaced by the backoff of a test clock until the delivery
 * is given up and recorded, after which the session's next event goes on.
 */
class WebhooksTest {
    @TempDir
    Path dir;

    @Test
    void everySubscribedEventArrivesSignedInOrderPerSession() throws Exception {
        try (TestServer server = new TestServer(dir); WebhookReceiver receiver = new WebhookReceiver()) {
            Http acme = server.tenant("acme");
            Http.Response added = acme.post("/v1/webhooks", "{\"url\":\"" + receiver.url() + "\",\"events\":"
                    + Json.write(WebhookEvents.TYPES) + "}");
            assertThat(added.status()).as(added.body()).isEqualTo(201);
            String secret = added.json().path("secret").asText();
            assertThat(secret).startsWith("whsec_");
            for (String id : List.of("a", "b")) {
                assertThat(acme.post("/v1/sessions", "{\"id\":\"" + id + "\"}").status()).isEqualTo(201);
            }
            assertThat(acme.post("/v1/sessions", "{\"id\":\"held\",\"config\":{\"requireApproval\":[\"calculate\"]}}").status())
                    .isEqualTo(201);
            for (int i = 0; i < 3; i++) {
                for (String id : List.of("a", "b")) {
                    assertThat(acme.post("/v1/sessions/" + id + "/messages", "{\"text\":\"what is " + i + "+1\"}").status()).isEqualTo(200);
                }
            }
            acme.post("/v1/sessions/held/messages", "{\"text\":\"what is 2+3\"}");
            // another tenant's sessions are not this tenant's webhooks' business
            Http other = server.tenant("globex");
            assertThat(other.post("/v1/sessions", "{\"id\":\"g\"}").status()).isEqualTo(201);

            List<WebhookReceiver.Delivery> got = receiver.await(d -> count(d, "a") >= 4 && count(d, "b") >= 4 && count(d, "held") >= 2,
                    Duration.ofSeconds(60));
            Map<String, List<Long>> seqs = new HashMap<>();
            for (WebhookReceiver.Delivery d : got) {
                assertThat(Signature.verify(secret, d.id(), Long.parseLong(d.timestamp()), d.body(), d.signature())).as(d.id()).isTrue();
                JsonNode body = Json.parse(d.body(), "body");
                assertThat(body.path("data").path("tenant").asText()).isEqualTo("acme");
                assertThat(d.id()).isEqualTo(body.path("data").path("session").asText() + "/" + body.path("data").path("seq").asLong());
                seqs.computeIfAbsent(body.path("data").path("session").asText(), k -> new ArrayList<>()).add(body.path("data").path("seq").asLong());
            }
            assertThat(seqs).doesNotContainKey("g");
            for (List<Long> s : seqs.values()) {
                assertThat(s).isSorted().doesNotHaveDuplicates();
            }
            assertThat(types(got, "a")).containsExactly("session.created", "turn.completed", "turn.completed", "turn.completed");
            assertThat(types(got, "held")).containsExactly("session.created", "turn.awaiting_approval");
            // the export agrees: the delivered seqs are the journal's
            JsonNode last = Json.parse(acme.get("/v1/sessions/a/export").body().lines().reduce((x, y) -> y).orElseThrow(), "line");
            assertThat(seqs.get("a").getLast()).isEqualTo(last.path("seq").asLong());
        }
    }

    @Test
    void subscriptionsAreTheTenantsOwnAndBadInputIsRefused() {
        try (TestServer server = new TestServer(dir)) {
            Http acme = server.tenant("acme");
            Http other = server.tenant("globex");
            Http.Response unknown = acme.post("/v1/webhooks", "{\"url\":\"http://127.0.0.1:9/x\",\"events\":[\"turn.exploded\"]}");
            assertThat(unknown.status()).isEqualTo(400);
            assertThat(unknown.body()).contains("turn.exploded").contains("events");
            assertThat(acme.post("/v1/webhooks", "{\"url\":\"ftp://h/x\",\"events\":[\"turn.completed\"]}").body()).contains("url");
            assertThat(acme.post("/v1/webhooks", "{\"url\":\"http://h/x\",\"events\":[]}").status()).isEqualTo(400);
            assertThat(acme.post("/v1/webhooks", "{\"url\":\"http://h/x\",\"events\":[\"turn.completed\"],\"x\":1}").status()).isEqualTo(400);
            assertThat(acme.get("/v1/webhooks").json().path("webhooks")).isEmpty(); // nothing was written

            String id = acme.post("/v1/webhooks", "{\"url\":\"http://127.0.0.1:9/x\",\"events\":[\"turn.completed\"]}").json().path("id").asText();
            assertThat(acme.get("/v1/webhooks").json().path("webhooks")).hasSize(1);
            assertThat(acme.get("/v1/webhooks").body()).doesNotContain("whsec_");
            assertThat(acme.get("/v1/webhooks/" + id).json().path("secret").asText()).startsWith("whsec_");
            Http.Response theirs = other.get("/v1/webhooks/" + id);
            assertThat(theirs.status()).isEqualTo(404);
            assertThat(theirs.body()).isEqualTo(other.get("/v1/webhooks/wh_unknown").body());
            assertThat(other.delete("/v1/webhooks/" + id).status()).isEqualTo(404);
            assertThat(other.get("/v1/webhooks").json().path("webhooks")).isEmpty();
            assertThat(acme.delete("/v1/webhooks/" + id).status()).isEqualTo(204);
            assertThat(acme.get("/v1/webhooks").json().path("webhooks")).isEmpty();
            assertThat(acme.delete("/v1/webhooks/" + id).status()).isEqualTo(404);

            // a tenant's erasure takes its subscriptions with it
            acme.post("/v1/webhooks", "{\"url\":\"http://127.0.0.1:9/x\",\"events\":[\"turn.completed\"]}");
            assertThat(acme.post("/v1/sessions", "{\"id\":\"s\"}").status()).isEqualTo(201);
            Http admin = acme.as(server.server.keys().create(dev.threadline.server.keys.KeyStore.ADMIN).secret());
            Http.Response erased = admin.post("/v1/admin/erasures", "{\"tenant\":\"acme\",\"all\":true}");
            assertThat(erased.status()).as(erased.body()).isEqualTo(200);
            assertThat(erased.json().path("webhooks").asInt()).isEqualTo(1);
            assertThat(server.tenant("acme").get("/v1/webhooks").json().path("webhooks")).isEmpty();
        }
    }

    @Test
    void aFailingReceiverSeesRetriesByTheBackoffThenTheDeliveryIsGivenUpAndTheNextGoesOn() throws Exception {
        String store = "sqlite:" + dir.resolve("hooks.db");
        RetentionSweepTest.MovableClock clock = new RetentionSweepTest.MovableClock();
        WebhookSettings settings = new WebhookSettings(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofSeconds(5), Duration.ofMinutes(1), Duration.ofHours(1));
        try (WebhookReceiver receiver = new WebhookReceiver();
             Threadline runtime = Threadline.builder().store(store).model(ScriptedModel.demo()).leaseLinger(Duration.ZERO).build();
             Webhooks hooks = Webhooks.manual(store, clock, settings)) {
            Subscription sub = hooks.records().add("acme", receiver.url().toString(), List.of("session.created", "turn.completed"));
            Session s = runtime.tenant("acme").create("s", SessionConfig.DEFAULT);
            receiver.answer(500);
            assertThat(hooks.deliverNow()).isEqualTo(1); // session.created, refused
            assertThat(hooks.deliverNow()).isZero(); // not before its backoff
            clock.advance(Duration.ofSeconds(4));
            assertThat(hooks.deliverNow()).isZero();
            clock.advance(Duration.ofSeconds(1)); // 5 s: the first retry
            assertThat(hooks.deliverNow()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(9));
            assertThat(hooks.deliverNow()).isZero(); // the second waits 10 s
            clock.advance(Duration.ofSeconds(1));
            assertThat(hooks.deliverNow()).isEqualTo(1);
            for (int i = 0; i < 80; i++) { // 20 s, 40 s, then every minute (the cap) until an hour has passed
                clock.advance(Duration.ofMinutes(1));
                hooks.deliverNow();
            }
            List<Failure> failed = hooks.records().failures("acme", sub.id());
            assertThat(failed).hasSize(1);
            assertThat(failed.getFirst().session()).isEqualTo("s");
            assertThat(failed.getFirst().seq()).isEqualTo(1);
            assertThat(failed.getFirst().lastError()).isEqualTo("HTTP 500");
            int tries = receiver.received().size();
            assertThat(tries).isEqualTo(failed.getFirst().attempts()).isBetween(60, 64);
            assertThat(receiver.received()).allMatch(d -> d.id().equals("s/1"));
            assertThat(hooks.deliverNow()).isZero(); // given up: never sent again

            receiver.answer(200);
            s.submit("what is 1+1");
            assertThat(hooks.deliverNow()).isEqualTo(1); // the turn's end, at once
            WebhookReceiver.Delivery d = receiver.received().getLast();
            assertThat(Json.parse(d.body(), "body").path("type").asText()).isEqualTo("turn.completed");
            assertThat(d.answered()).isEqualTo(200);
            assertThat(hooks.deliverNow()).isZero(); // delivered once
        }
    }

    @Test
    void expiredAndErasedSessionsAreAnnouncedAndADeletedOneIsNot() throws Exception {
        String store = "sqlite:" + dir.resolve("removals.db");
        RetentionSweepTest.MovableClock clock = new RetentionSweepTest.MovableClock();
        try (WebhookReceiver receiver = new WebhookReceiver();
             Threadline runtime = Threadline.builder().store(store).model(ScriptedModel.demo()).clock(clock).leaseLinger(Duration.ZERO).build();
             Webhooks hooks = Webhooks.manual(store, clock, WebhookSettings.DEFAULTS)) {
            hooks.records().add("acme", receiver.url().toString(), List.of("session.created", "session.expired", "session.erased"));
            for (String id : List.of("old", "gone", "deleted")) {
                runtime.tenant("acme").create(new dev.threadline.core.runtime.NewSession(id, "u-" + id, SessionConfig.DEFAULT, Map.of(),
                        Duration.ofMinutes(5)));
            }
            assertThat(hooks.deliverNow()).isEqualTo(3); // each one's session.created
            runtime.tenant("acme").delete("deleted");
            clock.advance(Duration.ofMinutes(2));
            assertThat(hooks.deliverNow()).isZero(); // deleted before its expiry: no event, and its cursor goes
            clock.advance(Duration.ofMinutes(8));
            runtime.lifecycle().erase(dev.threadline.core.runtime.DataSubject.session("acme", "gone"), "admin");
            assertThat(runtime.sweep(100).removed()).isEqualTo(1);
            assertThat(hooks.deliverNow()).isEqualTo(2);
            List<String> last = receiver.received().subList(3, 5).stream().map(WebhookReceiver.Delivery::id).sorted().toList();
            assertThat(last).containsExactly("gone/erased", "old/expired");
            JsonNode expired = Json.parse(receiver.received().stream().filter(d -> d.id().equals("old/expired")).findFirst().orElseThrow()
                    .body(), "body");
            assertThat(expired.path("type").asText()).isEqualTo("session.expired");
            assertThat(expired.path("data").path("session").asText()).isEqualTo("old");
            clock.advance(Duration.ofMinutes(2));
            assertThat(hooks.deliverNow()).isZero(); // announced once: the cursors went with them
        }
    }

    private static long count(List<WebhookReceiver.Delivery> got, String session) {
        return got.stream().filter(d -> d.id().startsWith(session + "/")).map(WebhookReceiver.Delivery::id).distinct().count();
    }

    private static List<String> types(List<WebhookReceiver.Delivery> got, String session) {
        return got.stream().filter(d -> d.id().startsWith(session + "/")).map(d -> Json.parse(d.body(), "b").path("type").asText()).toList();
    }
}
