package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.DataLifecycle;
import dev.threadline.server.keys.KeyStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 items 3 and 4 over HTTP: an admin key places a hold, the held user's erasure is a 409
 * naming it and changes nothing, and after the lift the erasure answers the receipt and the user's
 * sessions are gone for the tenant's own key while another user's stay. Admin routes refuse a tenant's
 * key and an admin key opens nothing else; bad bodies are 400 naming the field.
 */
class AdminRoutesTest {
    @TempDir
    Path dir;

    @Test
    void anAdminKeyHoldsAndErasesAndTheTenantSeesTheResult() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("a.db")).model(ScriptedModel.demo()).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0))) {
            Http tenant = new Http(server.url(), server.createdKey().orElseThrow().secret());
            String t = server.createdKey().orElseThrow().key().tenant();
            Http admin = tenant.as(KeyStore.on(runtime).create(KeyStore.ADMIN).secret());
            assertThat(tenant.post("/v1/sessions", "{\"id\":\"ada-1\",\"userId\":\"ada\"}").status()).isEqualTo(201);
            assertThat(tenant.post("/v1/sessions/ada-1/messages", "{\"text\":\"my secret is 42\"}").status()).isEqualTo(200);
            assertThat(tenant.post("/v1/sessions", "{\"id\":\"bob-1\",\"userId\":\"bob\"}").status()).isEqualTo(201);

            Http.Response placed = admin.post("/v1/admin/holds", "{\"tenant\":\"" + t + "\",\"user\":\"ada\",\"reason\":\"case 9\",\"by\":\"legal\"}");
            assertThat(placed.status()).as(placed.body()).isEqualTo(201);
            assertThat(placed.json().path("subject").path("kind").asText()).isEqualTo("user");
            assertThat(admin.post("/v1/admin/holds", "{\"tenant\":\"" + t + "\",\"user\":\"ada\",\"reason\":\"again\"}").status())
                    .as("an existing hold is answered, unchanged").isEqualTo(200);
            assertThat(admin.get("/v1/admin/holds?tenant=" + t).json().path("holds").size()).isEqualTo(1);

            Http.Response refused = admin.post("/v1/admin/erasures", "{\"tenant\":\"" + t + "\",\"user\":\"ada\"}");
            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.json().path("type").asText()).endsWith("legal-hold");
            assertThat(refused.json().path("detail").asText()).contains("case 9").contains("legal");
            assertThat(tenant.get("/v1/sessions/ada-1").status()).isEqualTo(200);

            assertThat(admin.delete("/v1/admin/holds?tenant=" + t + "&user=ada").status()).isEqualTo(204);
            assertThat(admin.delete("/v1/admin/holds?tenant=" + t + "&user=ada").status()).isEqualTo(404);
            Http.Response erased = admin.post("/v1/admin/erasures", "{\"tenant\":\"" + t + "\",\"user\":\"ada\",\"by\":\"dpo\"}");
            assertThat(erased.status()).as(erased.body()).isEqualTo(200);
            JsonNode receipt = erased.json();
            assertThat(receipt.path("sessions").asInt()).isEqualTo(1);
            assertThat(receipt.path("by").asText()).isEqualTo("dpo");
            assertThat(receipt.path("subjectHash").asText()).isEqualTo(DataLifecycle.hash(t, "ada"));
            assertThat(tenant.get("/v1/sessions/ada-1").status()).isEqualTo(404);
            assertThat(tenant.get("/v1/sessions/bob-1").status()).isEqualTo(200);
            assertThat(admin.get("/v1/admin/erasures?tenant=" + t).json().path("receipts").get(0).path("id").asText())
                    .isEqualTo(receipt.path("id").asText());
            assertThat(admin.post("/v1/admin/erasures", "{\"tenant\":\"" + t + "\",\"user\":\"ada\"}").status())
                    .as("nothing left of ada").isEqualTo(404);
        }
    }

    @Test
    void eachKeyOpensOnlyItsOwnRoutesAndBadBodiesNameTheField() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("b.db")).model(ScriptedModel.demo()).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0))) {
            Http tenant = new Http(server.url(), server.createdKey().orElseThrow().secret());
            Http admin = tenant.as(KeyStore.on(runtime).create(KeyStore.ADMIN).secret());
            assertThat(tenant.get("/v1/admin/holds?tenant=x").status()).isEqualTo(403);
            assertThat(admin.get("/v1/sessions").status()).isEqualTo(403);
            assertThat(tenant.as(null).get("/v1/admin/holds?tenant=x").status()).isEqualTo(401);
            for (String bad : new String[] {"{\"tenant\":\"acme\"}", "{\"tenant\":\"acme\",\"user\":\"u\",\"session\":\"s\"}",
                    "{\"user\":\"u\"}", "{\"tenant\":\"acme corp\",\"user\":\"u\"}", "{\"tenant\":\"acme\",\"user\":\"u\",\"by\":\" \"}",
                    "{\"tenant\":\"threadline.server\",\"all\":true}", "{\"tenant\":\"acme\",\"user\":\"u\",\"colour\":1}"}) {
                Http.Response r = admin.post("/v1/admin/erasures", bad);
                assertThat(r.status()).as(bad + " -> " + r.body()).isEqualTo(400);
                assertThat(r.json().path("field").asText()).as(bad).isNotBlank();
            }
            assertThat(admin.post("/v1/admin/holds", "{\"tenant\":\"acme\",\"user\":\"u\"}").json().path("field").asText()).isEqualTo("reason");
            assertThat(admin.get("/v1/admin/holds").status()).isEqualTo(400);
            assertThat(runtime.lifecycle().holds("acme")).isEmpty();
        }
    }
}
