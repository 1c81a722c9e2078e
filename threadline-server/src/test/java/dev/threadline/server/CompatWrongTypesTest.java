package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compatible surfaces refuse a field of the wrong type with a 400 problem naming it (issue 26,
 * item 16), where they used to read {@code ids:[1]} as {@code "1"}, {@code metadata:null} as no
 * metadata and {@code subgraphs:"yes"} as false.
 */
class CompatWrongTypesTest {
    @TempDir
    Path dir;
    TestServer server;

    @BeforeEach
    void start() {
        server = new TestServer(dir);
        assertThat(server.http.post("/langgraph/threads", "{\"thread_id\":\"t1\"}").status()).isEqualTo(200);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void assertRefused(String path, String body, String field) {
        Http.Response r = server.http.post(path, body);
        assertThat(r.status()).as(path + " " + body + " -> " + r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.body()).as(body).contains(field);
    }

    @Test
    void wrongTypesAreA400NamingTheField() {
        assertRefused("/langgraph/threads/search", "{\"ids\":[1]}", "ids");
        assertRefused("/langgraph/threads/search", "{\"metadata\":null}", "metadata");
        assertRefused("/langgraph/threads", "{\"metadata\":null}", "metadata");
        assertRefused("/langgraph/threads/t1/state/checkpoint", "{\"subgraphs\":\"yes\",\"checkpoint\":{\"checkpoint_id\":\"1\"}}",
                "subgraphs");
        assertRefused("/openai/v1/conversations", "{\"metadata\":null}", "metadata");
        assertThat(server.http.post("/langgraph/threads/search", "{\"ids\":[\"t1\"]}").body()).contains("t1");
    }
}
