package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/sessions/{id}/search} (issue 38, first step): the message that said it comes first,
 * with its seq, role and snippet; another tenant's session is the same 404 as a missing one; a missing,
 * empty or overlong query and a bad limit are 400 naming the parameter, a query too long for the request
 * line a 414 problem; none of them changes the session.
 */
class SearchRouteTest {
    @TempDir
    Path dir;

    @Test
    void searchFindsTheMessageAndRefusesBadQueries() {
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("s.db")).model(ScriptedModel.demo()).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0))) {
            Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
            assertThat(http.post("/v1/sessions", "{\"id\":\"s\"}").status()).isEqualTo(201);
            assertThat(http.post("/v1/sessions/s/messages", "{\"text\":\"the door code is 4712\"}").status()).isEqualTo(200);
            assertThat(http.post("/v1/sessions/s/messages", "{\"text\":\"what is 2+2\"}").status()).isEqualTo(200);

            Http.Response r = http.get("/v1/sessions/s/search?q=door%20code&limit=3");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            JsonNode first = r.json().path("items").get(0);
            assertThat(first.path("snippet").asText()).isEqualTo("the door code is 4712");
            assertThat(first.path("role").asText()).isEqualTo("user");
            assertThat(first.path("session").asText()).isEqualTo("s");
            assertThat(first.path("seq").asLong()).isPositive();

            assertThat(http.get("/v1/sessions/nope/search?q=door").status()).isEqualTo(404);
            for (String bad : new String[] {"", "?q=%20%3F", "?q=door&limit=0", "?q=door&limit=101", "?q=" + "a".repeat(1001), "?q=door&colour=red"}) {
                Http.Response b = http.get("/v1/sessions/s/search" + bad);
                assertThat(b.status()).as(bad + " -> " + b.body()).isEqualTo(400);
                assertThat(b.json().path("field").asText()).as(bad).isNotBlank();
            }
        }
    }

    @Test
    void anEmptyAHugeQueryAndAnotherTenantsSessionAreClearErrorsThatChangeNothing() {
        try (TestServer server = new TestServer(dir)) {
            Http owner = server.tenant("acme");
            Http other = server.tenant("globex");
            assertThat(owner.post("/v1/sessions", "{\"id\":\"s\"}").status()).isEqualTo(201);
            assertThat(owner.post("/v1/sessions/s/messages", "{\"text\":\"the door code is 4712\"}").status()).isEqualTo(200);
            String before = owner.get("/v1/sessions/s/export").body();

            Http.Response empty = owner.get("/v1/sessions/s/search?q=");
            assertThat(empty.status()).as(empty.body()).isEqualTo(400);
            assertThat(empty.json().path("field").asText()).isEqualTo("q");
            Http.Response longer = owner.get("/v1/sessions/s/search?q=" + "door+".repeat(1_000));
            assertThat(longer.status()).as(longer.body()).isEqualTo(400);
            assertThat(longer.json().path("field").asText()).isEqualTo("q");
            assertThat(longer.json().path("detail").asText()).as(longer.body()).contains("5000").contains("1000");
            // 10,000 characters cannot fit the HTTP layer's request line (8 KiB): refused there, as a problem, before the route
            Http.Response huge = owner.get("/v1/sessions/s/search?q=" + "door+".repeat(2_000));
            assertThat(huge.status()).as(huge.body()).isEqualTo(414);
            assertThat(huge.json().path("type").asText()).endsWith("/request-too-large");
            assertThat(huge.body()).doesNotContain("door");
            Http.Response foreign = other.get("/v1/sessions/s/search?q=door");
            assertThat(foreign.status()).isEqualTo(404);
            assertThat(foreign.body()).doesNotContain("4712");

            assertThat(owner.get("/v1/sessions/s/export").body()).as("bad searches change nothing").isEqualTo(before);
        }
    }
}
