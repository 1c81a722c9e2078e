package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A route asked with a method it does not take answers 405 with an {@code Allow} header naming the
 * methods it does take, as problem+json (docs/http-api.md; issue 26, item 16): before, it was a 404
 * that said the route did not exist. A path no route has stays a 404.
 */
class WrongMethodTest {
    @TempDir
    Path dir;
    TestServer server;
    URI url;

    @BeforeEach
    void start() {
        server = new TestServer(dir);
        url = server.server.url();
        assertThat(server.http.post("/v1/sessions", "{\"id\":\"s1\"}").status()).isEqualTo(201);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void assert405(String method, String path, String allow) {
        RawHttp.Reply r = RawHttp.send(url, server.http.key, method, path, null, new byte[0]);
        assertThat(r.status()).as(method + " " + path + " -> " + r.headers() + " " + r.text()).isEqualTo(405);
        assertThat(r.contentType()).as(method + " " + path).startsWith("application/problem+json");
        assertThat(r.text()).as(method + " " + path).contains("\"status\":405").contains("method-not-allowed");
        assertThat(r.headers().get("allow")).as(method + " " + path + " Allow").isEqualTo(allow);
    }

    @Test
    void aWrongMethodOnAnExistingRouteIs405WithAllowNot404() {
        assert405("PUT", "/v1/sessions", "GET, POST");
        assert405("DELETE", "/v1/sessions/s1/messages", "POST");
        assert405("PATCH", "/v1/sessions/s1", "DELETE, GET");
        assert405("POST", "/health", "GET");
        assert405("DELETE", "/metrics", "GET");
        RawHttp.Reply none = RawHttp.send(url, server.http.key, "GET", "/v1/nothing-here", null, new byte[0]);
        assertThat(none.status()).as(none.text()).isEqualTo(404);
    }
}
