package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /openapi.json} lists exactly the routes the server serves, and every operation documents its errors. */
class OpenApiTest {
    @TempDir
    Path dir;

    @Test
    void theDocumentListsExactlyTheServedRoutes() {
        try (TestServer server = new TestServer(dir)) {
            JsonNode doc = server.http.as(null).get("/openapi.json").json();
            assertThat(doc.path("openapi").asText()).startsWith("3.1");
            Set<String> documented = new TreeSet<>();
            doc.path("paths").properties().forEach(p -> p.getValue().properties().forEach(op -> {
                if (!op.getKey().equals("parameters")) {
                    documented.add(op.getKey().toUpperCase(Locale.ROOT) + " " + p.getKey());
                    if (p.getKey().startsWith("/v1/")) {
                        assertThat(op.getValue().path("responses").has("401")).as(op.getKey() + " " + p.getKey()).isTrue();
                    }
                }
            }));
            assertThat(documented).isEqualTo(new TreeSet<>(server.server.routes()));
        }
    }
}
