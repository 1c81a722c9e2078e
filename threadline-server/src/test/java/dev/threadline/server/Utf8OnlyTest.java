package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UTF-8 only, everywhere (issue 26, item 15): problems were sent in ISO-8859-1 ({@code ü} as 0xFC)
 * while successes were UTF-8, and bodies in UTF-16 or UTF-32 or with a byte order mark were accepted
 * (a UTF-16 {@code {}} compacted a session). Now every answer is UTF-8 and says so, and a body that is
 * not UTF-8, starts with a BOM or declares another charset is a 400 naming what is wrong, and changes
 * nothing. Raw sockets, so the bytes sent and received are exactly those written here.
 */
class Utf8OnlyTest {
    private static final String PROBLEM = "application/problem+json;charset=utf-8";
    private static final String JSON = "application/json;charset=utf-8";
    private static final byte[] U_UMLAUT = {(byte) 0xC3, (byte) 0xBC};

    @TempDir
    static Path dir;
    static TestServer server;
    static URI url;
    static String key;

    @BeforeAll
    static void start() {
        server = new TestServer(dir);
        url = server.server.url();
        key = server.http.key;
        assertThat(server.http.post("/v1/sessions", "{\"id\":\"u1\"}").status()).isEqualTo(201);
        assertThat(server.http.post("/v1/sessions/u1/messages", "{\"text\":\"what is 2+2\"}").status()).isEqualTo(200);
        assertThat(server.http.post("/openai/v1/conversations", "{\"metadata\":{\"k\":\"v\"}}").status()).isEqualTo(200);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static RawHttp.Reply post(String path, String contentType, byte[] body) {
        return RawHttp.send(url, key, "POST", path, contentType, body);
    }

    private static boolean containsBytes(byte[] in, byte[] what) {
        return new String(in, StandardCharsets.ISO_8859_1).contains(new String(what, StandardCharsets.ISO_8859_1));
    }

    @Test
    void problemsAreUtf8AndSaySo() {
        byte[] body = "{\"ü\":1}".getBytes(StandardCharsets.UTF_8);
        for (String path : List.of("/v1/sessions", "/openai/v1/conversations", "/langgraph/threads")) {
            RawHttp.Reply r = post(path, "application/json", body);
            assertThat(r.status()).as(path).isBetween(400, 422);
            assertThat(r.contentType()).as(path).isEqualTo(PROBLEM);
            assertThat(containsBytes(r.body(), U_UMLAUT)).as(path + ": ü in UTF-8 in " + r.text()).isTrue();
            assertThat(r.body()).as(path).doesNotContain((byte) 0xFC);
        }
        RawHttp.Reply jetty = RawHttp.exchange(url, "GET /v1/sessions HTTP/1.7\r\nHost: localhost\r\n\r\n", new byte[0]);
        assertThat(jetty.contentType()).as("Jetty's own refusal").isEqualTo(PROBLEM);
        assertThat(RawHttp.send(url, null, "GET", "/v1/sessions", null, new byte[0]).contentType()).as("401").isEqualTo(PROBLEM);
        assertThat(RawHttp.send(url, key, "GET", "/nothing", null, new byte[0]).contentType()).as("404").isEqualTo(PROBLEM);
    }

    @Test
    void everyAnswerSaysCharsetUtf8() {
        assertThat(RawHttp.send(url, key, "GET", "/v1/sessions", null, new byte[0]).contentType()).isEqualTo(JSON);
        assertThat(RawHttp.send(url, key, "GET", "/v1/sessions/u1/state", null, new byte[0]).contentType()).isEqualTo(JSON);
        assertThat(RawHttp.send(url, key, "GET", "/openapi.json", null, new byte[0]).contentType()).isEqualTo(JSON);
        assertThat(RawHttp.send(url, key, "GET", "/openai/v1/conversations/u1", null, new byte[0]).contentType()).isEqualTo(JSON);
        assertThat(RawHttp.send(url, key, "GET", "/langgraph/threads/u1", null, new byte[0]).contentType()).isEqualTo(JSON);
        assertThat(RawHttp.send(url, key, "GET", "/v1/sessions/u1/export", null, new byte[0]).contentType())
                .isEqualTo("application/x-ndjson;charset=utf-8");
        assertThat(RawHttp.send(url, key, "GET", "/metrics", null, new byte[0]).contentType()).containsIgnoringCase("charset=utf-8");
        assertThat(RawHttp.send(url, key, "GET", "/ui/", null, new byte[0]).contentType()).isEqualTo("text/html;charset=utf-8");
        assertThat(RawHttp.send(url, key, "GET", "/ui/app.js", null, new byte[0]).contentType()).isEqualTo("text/javascript;charset=utf-8");
        assertThat(RawHttp.send(url, key, "GET", "/ui/style.css", null, new byte[0]).contentType()).isEqualTo("text/css;charset=utf-8");
    }

    @Test
    void aBodyThatIsNotUtf8IsRefusedOnEverySurfaceAndChangesNothing() {
        String journal = server.http.get("/v1/sessions/u1/export").body();
        String items = server.http.get("/openai/v1/conversations/u1/items").body();
        String empty = "{}";
        String item = "{\"items\":[{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}]}";
        record Case(String name, String contentType, byte[] body, String says) {}
        List<Case> cases = List.of(
                new Case("UTF-16LE", "application/json", bytes(empty, StandardCharsets.UTF_16LE), "NUL byte"),
                new Case("UTF-16BE", "application/json", bytes(empty, StandardCharsets.UTF_16BE), "NUL byte"),
                new Case("UTF-16 with a BOM", "application/json", bytes(empty, StandardCharsets.UTF_16), "byte order mark"),
                new Case("UTF-32", "application/json", bytes(empty, Charset.forName("UTF-32")), "NUL byte"),
                new Case("UTF-32LE with a BOM", "application/json", concat(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0},
                        bytes(empty, Charset.forName("UTF-32LE"))), "byte order mark"),
                new Case("UTF-8 with a BOM", "application/json", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        bytes(empty, StandardCharsets.UTF_8)), "byte order mark"),
                new Case("ISO-8859-1", "application/json", bytes("{\"focus\":\"ü\"}", StandardCharsets.ISO_8859_1), "not valid UTF-8"),
                new Case("an overlong encoding", "application/json", new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', ':', '1', '}'},
                        "not valid UTF-8"),
                new Case("charset=utf-16 declared", "application/json; charset=utf-16", bytes(empty, StandardCharsets.UTF_8), "charset"),
                new Case("charset=iso-8859-1 declared", "application/json;charset=\"ISO-8859-1\"", bytes(empty, StandardCharsets.UTF_8),
                        "charset"));
        for (String path : List.of("/v1/sessions/u1/compact", "/v1/sessions/u1/messages", "/openai/v1/conversations/u1/items",
                "/langgraph/threads/u1/state")) {
            for (Case c : cases) {
                // a charset declared wrongly on a body that would otherwise be taken: the refusal is for the charset alone
                byte[] body = c.says.equals("charset") && path.contains("/items") ? bytes(item, StandardCharsets.UTF_8) : c.body;
                RawHttp.Reply r = post(path, c.contentType, body);
                String what = path + ", " + c.name + " -> " + r.text();
                assertThat(r.status()).as(what).isEqualTo(400);
                assertThat(r.contentType()).as(what).isEqualTo(PROBLEM);
                assertThat(r.text()).as(what).contains(c.says)
                        .contains(c.says.equals("charset") ? "\"field\":\"Content-Type\"" : "\"field\":\"body\"");
            }
        }
        assertThat(server.http.get("/v1/sessions/u1/export").body()).as("the journal").isEqualTo(journal);
        assertThat(server.http.get("/openai/v1/conversations/u1/items").body()).as("the conversation").isEqualTo(items);
        RawHttp.Reply fine = post("/v1/sessions", "application/json; charset=UTF-8",
                bytes("{\"id\":\"utf8-ok\",\"metadata\":{\"k\":\"ü\"}}", StandardCharsets.UTF_8));
        assertThat(fine.status()).as("UTF-8 said as such is taken: " + fine.text()).isEqualTo(201);
        RawHttp.Reply read = RawHttp.send(url, key, "GET", "/v1/sessions/utf8-ok", null, new byte[0]);
        assertThat(containsBytes(read.body(), U_UMLAUT)).as("ü kept and sent back in UTF-8: " + read.text()).isTrue();
    }

    private static byte[] bytes(String s, Charset charset) {
        return s.getBytes(charset);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
