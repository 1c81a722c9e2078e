package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression (CI of stop 42, {@code SessionApiTest.refusesWithProblemJson}): a body over the limit was
 * answered 413 without being read, and the connection closed while the JDK's HttpClient was still
 * sending it, so now and then the client saw "Broken pipe" instead of the 413. The server now reads
 * and discards such a body (bounded) before answering.
 */
class OversizedBodyIsAnsweredTest {
    @TempDir
    static Path dir;
    static TestServer server;
    static final String BIG = "{\"text\":\"" + "a".repeat(2 << 20) + "\"}";

    @BeforeAll
    static void start() {
        server = new TestServer(dir);
        server.http.post("/v1/sessions", "{\"id\":\"big-1\"}");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aClientThatSendsItsWholeBodyFirstReadsThe413EveryTime() {
        long before = server.http.get("/v1/sessions/big-1/state").json().path("seq").asLong();
        for (int i = 0; i < 40; i++) { // failed within a few tries before the fix
            Http.Response r = server.http.post("/v1/sessions/big-1/messages", BIG);
            assertThat(r.status()).as("try %d", i).isEqualTo(413);
            assertThat(r.contentType()).startsWith("application/problem+json");
        }
        assertThat(server.http.get("/v1/sessions/big-1/state").json().path("seq").asLong()).isEqualTo(before);
    }

    @Test
    void aClientThatAsksFirstIsRefusedBeforeSending() {
        HttpRequest ask = server.http.request("/v1/sessions/big-1/messages").header("Content-Type", "application/json")
                .expectContinue(true).POST(HttpRequest.BodyPublishers.ofString(BIG)).build();
        assertThat(Http.send(ask).status()).isEqualTo(413);
    }
}
