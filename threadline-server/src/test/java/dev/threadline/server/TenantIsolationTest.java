package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every session route (SSE, export and the human-in-the-loop ones included; the test checks that it
 * tries every route the server serves) with another tenant's key, on a session holding a canary string
 * and on one with a pending approval: a 404 identical to an unknown session's, the canary nowhere in
 * the answer or its headers, both sessions unchanged; the same for a webhook subscription's routes.
 */
class TenantIsolationTest {
    private static final String CANARY = "CANARY-7f3a9c";

    @TempDir
    Path dir;

    @Test
    void anotherTenantsSessionIsExactlyLikeAnUnknownOne() {
        try (TestServer server = new TestServer(dir)) {
            Http owner = server.tenant("acme");
            Http other = server.tenant("globex");
            String id = "s-" + CANARY;
            assertThat(owner.post("/v1/sessions", "{\"id\":\"" + id + "\",\"userId\":\"u-" + CANARY + "\",\"metadata\":{\"note\":\""
                    + CANARY + "\"},\"config\":{\"systemPrompt\":\"" + CANARY + "\"}}").status()).isEqualTo(201);
            assertThat(owner.post("/v1/sessions/" + id + "/messages", "{\"text\":\"remember " + CANARY + "\"}").status()).isEqualTo(200);
            // a pending approval, so that the approval routes have a real call to refuse
            String pending = "p-" + CANARY;
            assertThat(owner.post("/v1/sessions", "{\"id\":\"" + pending + "\",\"config\":{\"requireApproval\":[\"calculate\"]}}")
                    .status()).isEqualTo(201);
            owner.post("/v1/sessions/" + pending + "/messages", "{\"text\":\"what is 2+3\"}");
            String toolUseId = owner.get("/v1/sessions/" + pending + "/approvals").json().path("items").get(0).path("toolUseId").asText();
            String pendingBefore = owner.get("/v1/sessions/" + pending + "/export").body();
            String exportBefore = owner.get("/v1/sessions/" + id + "/export").body();
            assertThat(exportBefore).contains(CANARY);

            List<Function<String, HttpRequest>> routes = List.of(
                    s -> other.request("/v1/sessions/" + s).GET().build(),
                    s -> other.request("/v1/sessions/" + s).DELETE().build(),
                    s -> other.request("/v1/sessions/" + s + "/state").GET().build(),
                    s -> other.request("/v1/sessions/" + s + "/checkpoints").GET().build(),
                    s -> other.request("/v1/sessions/" + s + "/checkpoints/1").GET().build(),
                    s -> other.request("/v1/sessions/" + s + "/export").GET().build(),
                    s -> other.request("/v1/sessions/" + s + "/search?q=" + CANARY).GET().build(),
                    s -> other.request("/v1/sessions/" + s + "/events?after=0").GET().build(),
                    s -> other.request("/v1/sessions/" + s + "/events").header("Last-Event-ID", "1").GET().build(),
                    s -> post(other, s, "messages", "{\"text\":\"" + CANARY + "\"}").build(),
                    s -> post(other, s, "messages", "{\"text\":\"hi\"}").header("Accept", "text/event-stream").build(),
                    s -> post(other, s, "fork", "{\"seq\":1}").build(),
                    s -> post(other, s, "rewind", "{\"seq\":1}").build(),
                    s -> post(other, s, "compact", "{}").build(),
                    s -> post(other, s, "clear", "").build(),
                    s -> post(other, s, "interrupt", "").header("Idempotency-Key", "k").build(),
                    s -> post(other, s, "replay", "{\"model\":\"scripted\"}").build(),
                    s -> other.request("/v1/sessions/" + s + "/budget").header("Content-Type", "application/json")
                            .PUT(HttpRequest.BodyPublishers.ofString("{\"tokens\":1}")).build(),
                    s -> other.request("/v1/sessions/" + s + "/approvals").GET().build(),
                    s -> post(other, s, "approvals/" + toolUseId, "{\"decision\":\"approve\"}").build(),
                    s -> post(other, s, "approvals/" + toolUseId, "{\"decision\":\"deny\",\"reason\":\"" + CANARY + "\"}")
                            .header("Accept", "text/event-stream").build(),
                    s -> post(other, s, "answers/" + toolUseId, "{\"text\":\"" + CANARY + "\"}").build(),
                    s -> post(other, s, "edits", "{\"author\":\"x\",\"edits\":[{\"kind\":\"remove_variable\",\"name\":\"v\"}]}").build(),
                    s -> post(other, s, "messages", "{\"text\":\"x\",\"strategy\":\"interrupt\"}").build());
            java.util.Set<String> tried = new java.util.TreeSet<>();
            for (Function<String, HttpRequest> route : routes) {
                HttpRequest r = route.apply("ID");
                tried.add(r.method() + " " + r.uri().getPath().replace("/ID", "/{id}").replace("/checkpoints/1", "/checkpoints/{seq}")
                        .replace("/" + toolUseId, "/{toolUseId}"));
            }
            java.util.Set<String> served = new java.util.TreeSet<>(server.server.routes().stream()
                    .filter(r -> r.contains("/v1/sessions/{id}")).toList());
            assertThat(tried).as("every session route is tried").containsAll(served);
            for (Function<String, HttpRequest> route : routes) {
                for (String target : List.of(id, pending)) {
                    Http.Response theirs = Http.send(route.apply(target));
                    Http.Response unknown = Http.send(route.apply("s-unknown"));
                    assertThat(theirs.status()).as(route.apply(target).method() + " " + route.apply(target).uri()).isEqualTo(404);
                    assertThat(theirs.body()).isEqualTo(unknown.body()).doesNotContain(CANARY);
                    assertThat(theirs.contentType()).isEqualTo(unknown.contentType());
                    assertThat(theirs.headers().map().toString()).doesNotContain(CANARY);
                }
            }
            // the tenant-scoped routes outside /v1/sessions: a webhook subscription
            String hook = owner.post("/v1/webhooks", "{\"url\":\"http://127.0.0.1:9/" + CANARY + "\",\"events\":[\"turn.completed\"]}")
                    .json().path("id").asText();
            List<Function<String, HttpRequest>> hookRoutes = List.of(h -> other.request("/v1/webhooks/" + h).GET().build(),
                    h -> other.request("/v1/webhooks/" + h).DELETE().build());
            java.util.Set<String> hookServed = new java.util.TreeSet<>(server.server.routes().stream()
                    .filter(r -> r.contains("/v1/webhooks/{hookId}")).toList());
            assertThat(hookRoutes.stream().map(r -> r.apply("H")).map(r -> r.method() + " " + r.uri().getPath().replace("/H", "/{hookId}"))
                    .toList()).as("every webhook route is tried").containsAll(hookServed);
            for (Function<String, HttpRequest> route : hookRoutes) {
                Http.Response theirs = Http.send(route.apply(hook));
                Http.Response unknown = Http.send(route.apply("wh_unknown"));
                assertThat(theirs.status()).isEqualTo(404);
                assertThat(theirs.body()).isEqualTo(unknown.body()).doesNotContain(CANARY);
            }
            assertThat(other.get("/v1/webhooks").body()).doesNotContain(CANARY);
            assertThat(owner.get("/v1/webhooks/" + hook).body()).contains(CANARY); // still there, unchanged
            Http.Response listed = other.get("/v1/sessions?metadata.note=" + CANARY);
            assertThat(listed.body()).doesNotContain(CANARY);
            assertThat(other.get("/v1/sessions").body()).doesNotContain(CANARY);
            assertThat(other.get("/metrics").body()).doesNotContain(CANARY);
            // another tenant may use the same id for a session of its own
            assertThat(other.post("/v1/sessions", "{\"id\":\"" + id + "\"}").status()).isEqualTo(201);
            assertThat(other.get("/v1/sessions/" + id + "/export").body()).doesNotContain("remember");

            assertThat(owner.get("/v1/sessions/" + id + "/export").body()).isEqualTo(exportBefore);
            assertThat(owner.get("/v1/sessions/" + pending + "/export").body()).isEqualTo(pendingBefore);
            assertThat(owner.get("/v1/sessions/" + pending + "/approvals").json().path("items")).hasSize(1);
        }
    }

    private static HttpRequest.Builder post(Http client, String id, String action, String body) {
        return client.request("/v1/sessions/" + id + "/" + action).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }
}
