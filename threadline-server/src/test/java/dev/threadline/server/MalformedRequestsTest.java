package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests the server cannot parse (issue 26, item 13), written byte for byte on a socket because an
 * HTTP client would refuse to send them: each is a 400 problem+json, never a 500 or a 505, and the
 * server logs no error for it. The log is read after the server has stopped, so every line it would
 * write for these requests has been written. (Tests log at ERROR only, see simplelogger.properties:
 * these assertions see the ERROR lines, which is where a failure's trace went.)
 */
class MalformedRequestsTest {
    @TempDir
    Path dir;
    RawHttp.LogCapture log;
    TestServer server;
    URI url;
    String key;

    @BeforeEach
    void start() {
        log = new RawHttp.LogCapture();
        server = new TestServer(dir);
        url = server.server.url();
        key = server.http.key;
        assertThat(server.http.post("/v1/sessions", "{\"id\":\"s1\"}").status()).isEqualTo(201);
    }

    @AfterEach
    void stop() {
        server.close();
        log.close();
    }

    private void assertNothingLogged() {
        server.close(); // idempotent: whatever the server logs for these requests is written by now
        assertThat(log.text()).as("the server's log").doesNotContain("ERROR").doesNotContain("Exception");
    }

    private static void assertBadRequest(String what, RawHttp.Reply r) {
        assertThat(r.status()).as(what + " -> " + r.text()).isEqualTo(400);
        assertThat(r.contentType()).as(what).startsWith("application/problem+json");
        assertThat(r.text()).as(what).contains("\"status\":400").doesNotContain("internal-error");
    }

    @Test
    void aPercentUEscapeInAnIdIsA400OnEveryIdRouteOfEverySurface() {
        List<String[]> routes = new ArrayList<>();
        for (String route : server.server.routes()) { // every /v1 route, as the OpenAPI document lists them
            if (route.contains("{")) {
                String[] mp = route.split(" ", 2);
                routes.add(new String[] {mp[0], mp[1].replaceAll("\\{[^}]+}", "%u002e")});
            }
        }
        assertThat(routes).as("the /v1 routes with an id").hasSizeGreaterThan(10);
        for (String path : List.of("/langgraph/threads/%u002e", "/langgraph/threads/%u002e/state", "/langgraph/threads/%u002e/history",
                "/langgraph/threads/%u002e/runs/wait", "/langgraph/assistants/%u002e", "/openai/v1/conversations/%u002e",
                "/openai/v1/conversations/%u002e/items", "/openai/v1/conversations/s1/items/%u002e")) {
            routes.add(new String[] {path.endsWith("history") || path.endsWith("wait") ? "POST" : "GET", path});
        }
        routes.add(new String[] {"DELETE", "/langgraph/threads/%u002e"});
        routes.add(new String[] {"DELETE", "/openai/v1/conversations/%u002e"});
        routes.add(new String[] {"GET", "/v1/sessions/s1/checkpoints?limit=%u0031"});
        for (String[] r : routes) {
            byte[] body = r[0].equals("POST") ? "{}".getBytes(StandardCharsets.UTF_8) : new byte[0];
            RawHttp.Reply reply = RawHttp.send(url, key, r[0], r[1], body.length > 0 ? "application/json" : null, body);
            assertBadRequest(r[0] + " " + r[1], reply);
            assertThat(reply.text()).as(r[1]).contains("not a percent-escape");
        }
        for (String cutOff : List.of("/v1/sessions/%u00", "/v1/sessions/s1%", "/openai/v1/conversations/%4")) { // Jetty refuses these itself
            assertBadRequest(cutOff, RawHttp.send(url, key, "GET", cutOff, null, new byte[0]));
        }
        assertNothingLogged();
    }

    @Test
    void aBadChunkSizeInARequestBodyIsA400() {
        for (String size : List.of("zz", "-1", "fffffffffffffffffffff")) {
            RawHttp.Reply r = RawHttp.exchange(url, "POST /v1/sessions HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Authorization: Bearer " + key + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                    (size + "\r\n{\"id\":\"chunked\"}\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertBadRequest("chunk size " + size, r);
        }
        RawHttp.Reply compat = RawHttp.exchange(url, "POST /openai/v1/conversations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Authorization: Bearer " + key + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                "zz\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertBadRequest("chunk size zz on /openai/v1", compat);
        assertThat(server.http.get("/v1/sessions/chunked").status()).isEqualTo(404);
        assertNothingLogged();
    }

    @Test
    void http09AndUnknownVersionsAreA400NotA505InternalError() {
        for (String requestLine : List.of("GET /v1/sessions", "GET /v1/sessions HTTP/1.7", "GET /v1/sessions HTTP/9.9",
                "GET /v1/sessions HTTP/x")) {
            RawHttp.Reply r = RawHttp.exchange(url, requestLine + "\r\nHost: localhost\r\nConnection: close\r\n\r\n", new byte[0]);
            assertBadRequest(requestLine, r);
            assertThat(r.text()).as(requestLine).contains("HTTP/1.1");
        }
        assertNothingLogged();
    }
}
