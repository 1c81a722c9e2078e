package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow and numerous clients (issue 26, item 14), on real sockets: a client that dribbles its headers
 * (a "slowloris") is cut off after the read timeout, and a node keeps at most {@code maxConnections}
 * connections, serving those it has.
 */
class SlowClientsTest {
    @TempDir
    Path dir;

    private static final String GET = "GET /health HTTP/1.1\r\nHost: localhost\r\n";

    @Test
    void aClientThatDribblesItsHeadersIsClosedAfterTheReadTimeout() throws IOException {
        try (TestServer server = new TestServer(ServerConfig.of(dir.resolve("t.db")).withPort(0)
                .withLimits(Limits.DEFAULT.withReadTimeoutMillis(1_000)));
             Socket s = connect(server.server.url())) {
            OutputStream out = s.getOutputStream();
            out.write(GET.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long start = System.nanoTime();
            s.setSoTimeout(100); // short reads, so that a header line can go out between them
            InputStream in = s.getInputStream();
            int header = 0;
            while (true) {
                long elapsedMs = (System.nanoTime() - start) / 1_000_000;
                assertThat(elapsedMs).as("the connection was still open after").isLessThan(20_000);
                try {
                    if (in.read() < 0) {
                        break; // closed by the server
                    }
                } catch (SocketTimeoutException stillOpen) {
                    try {
                        out.write(("X-Slow-" + header++ + ": a\r\n").getBytes(StandardCharsets.US_ASCII)); // never the empty line
                        out.flush();
                    } catch (IOException reset) {
                        break;
                    }
                } catch (IOException reset) {
                    break;
                }
            }
            assertThat((System.nanoTime() - start) / 1_000_000).as("closed after ms").isGreaterThanOrEqualTo(900);
            assertThat(header).as("header lines sent before the server closed").isGreaterThan(3);
        }
    }

    @Test
    void aClientThatDribblesItsBodyIsClosedAfterTheReadTimeout() throws IOException {
        try (TestServer server = new TestServer(ServerConfig.of(dir.resolve("t.db")).withPort(0)
                .withLimits(Limits.DEFAULT.withReadTimeoutMillis(1_000)));
             Socket s = connect(server.server.url())) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/sessions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + server.http.key
                    + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"metadata\": {\"a\": \"").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long start = System.nanoTime();
            s.setSoTimeout(100);
            InputStream in = s.getInputStream();
            StringBuilder answer = new StringBuilder();
            int sent = 0;
            while (true) {
                assertThat((System.nanoTime() - start) / 1_000_000).as("the connection was still open after").isLessThan(20_000);
                try {
                    int c = in.read();
                    if (c < 0) {
                        break; // closed by the server
                    }
                    answer.append((char) c);
                } catch (SocketTimeoutException stillOpen) {
                    try {
                        out.write('x'); // a byte at a time, never the whole body
                        out.flush();
                        sent++;
                    } catch (IOException reset) {
                        break;
                    }
                } catch (IOException reset) {
                    break;
                }
            }
            assertThat((System.nanoTime() - start) / 1_000_000).as("closed after ms").isGreaterThanOrEqualTo(900);
            assertThat(sent).as("body bytes sent before the server closed").isGreaterThan(3).isLessThan(900);
            assertThat(answer.toString()).as("no session was created").doesNotStartWith("HTTP/1.1 201");
        }
    }

    @Test
    void pastMaxConnectionsANewConnectionIsNotServedUntilOneCloses() throws IOException {
        try (TestServer server = new TestServer(ServerConfig.of(dir.resolve("t.db")).withPort(0)
                .withLimits(Limits.DEFAULT.withMaxConnections(3)))) {
            URI url = server.server.url();
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket s = connect(url);
                    held.add(s);
                    assertThat(request(s, false)).startsWith("HTTP/1.1 200"); // served, and kept open
                }
                Socket extra = connect(url); // the kernel's backlog takes it; Jetty does not accept it
                held.add(extra);
                extra.getOutputStream().write((GET + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                extra.setSoTimeout(1_500);
                assertThatThrownBy(() -> extra.getInputStream().read()).as("an answer past the cap")
                        .isInstanceOf(SocketTimeoutException.class);
                assertThat(request(held.get(1), false)).as("a connection it has still works").startsWith("HTTP/1.1 200");
                held.get(0).close(); // a place frees up: the waiting connection is accepted and served
                extra.setSoTimeout(20_000);
                String answer = new String(extra.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(answer).startsWith("HTTP/1.1 200");
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    private static Socket connect(URI url) throws IOException {
        Socket s = new Socket(url.getHost(), url.getPort());
        s.setSoTimeout(20_000);
        return s;
    }

    /** One keep-alive request on {@code s}; the answer's head and body (read by its Content-Length). */
    private static String request(Socket s, boolean close) throws IOException {
        s.getOutputStream().write((GET + (close ? "Connection: close\r\n" : "") + "\r\n").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            head.append((char) c);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        if (m.find()) {
            return head + new String(in.readNBytes(Integer.parseInt(m.group(1))), StandardCharsets.UTF_8);
        }
        StringBuilder chunked = new StringBuilder(head); // chunked: up to the last, empty chunk
        while (!chunked.toString().endsWith("\r\n0\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            chunked.append((char) c);
        }
        return chunked.toString();
    }
}
