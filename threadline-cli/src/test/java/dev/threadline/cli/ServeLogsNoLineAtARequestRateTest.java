package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26, item 16: a client must not be able to make {@code threadline serve} log at its request rate.
 * Before, each CONNECT with a malformed authority, each body over the limit (413) and each request with two
 * {@code Host} headers cost a WARN line on the server's stderr. The child logs at slf4j-simple's own
 * default level (INFO), as the shipped jar does.
 */
class ServeLogsNoLineAtARequestRateTest {
    private static final int EACH = 200;

    @TempDir
    Path dir;

    @Test
    void connectsOversizedBodiesAndDuplicateHostsLeaveNoLineOnTheServersOutput() throws Exception {
        Path config = dir.resolve("serve.json");
        Files.writeString(config, "{\"limits\": {\"maxBodyBytes\": 1024}}");
        ServeProcess server = new ServeProcess(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=info"),
                "--db", dir.resolve("x.db").toString(), "--config", config.toString());
        int printed = server.output.size(); // the key and the URL
        String base = "Host: localhost\r\nConnection: close\r\nAuthorization: Bearer " + server.createdKey + "\r\n";
        byte[] big = "{\"text\":\"".concat("a".repeat(2048)).concat("\"}").getBytes(StandardCharsets.UTF_8);
        String chunked = Integer.toHexString(big.length) + "\r\n" + new String(big, StandardCharsets.UTF_8) + "\r\n0\r\n\r\n";
        try {
            for (int i = 0; i < EACH; i++) {
                assertThat(status(server.url, "CONNECT /v1/sessions HTTP/1.1\r\n" + base + "\r\n")).isEqualTo(400);
                assertThat(status(server.url, "CONNECT localhost:80 HTTP/1.1\r\n" + base + "\r\n")).isEqualTo(404);
                assertThat(status(server.url, "GET /v1/sessions HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n"
                        + "Authorization: Bearer " + server.createdKey + "\r\n\r\n")).isEqualTo(400);
                String body = i % 2 == 0 // a declared length over the limit, and a chunked body that runs over it
                        ? "Content-Length: " + big.length + "\r\n\r\n" + new String(big, StandardCharsets.UTF_8)
                        : "Transfer-Encoding: chunked\r\n\r\n" + chunked;
                assertThat(status(server.url, "POST /v1/sessions HTTP/1.1\r\n" + base + "Content-Type: application/json\r\n" + body))
                        .isEqualTo(413);
            }
        } finally {
            List<String> output = server.stopAndCollect();
            assertThat(output.subList(printed, output.size())).as("what the server printed after it started").isEmpty();
        }
    }

    /** Sends {@code request} as written on a connection of its own and returns the answer's status. */
    private static int status(URI server, String request) {
        try (Socket s = new Socket(server.getHost(), server.getPort())) {
            s.setSoTimeout(20_000); // a bound on a broken server, not a wait for anything
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.shutdownOutput(); // a CONNECT keeps its connection open otherwise, whatever Connection says
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(answer.substring(answer.indexOf(' ') + 1, answer.indexOf(' ') + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
