package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An observer whose connection drops gives its stream's slot back at once (issue 26, item 16), not at
 * the next heartbeat, whose write was until now the only way to notice: here the heartbeat is a minute,
 * so only the close itself can free the slot within the test's bound.
 */
class DroppedStreamTest {
    @TempDir
    Path dir;

    @Test
    void aDroppedObserverStreamFreesItsSlotWithoutWaitingForTheHeartbeat() throws IOException {
        try (TestServer server = new TestServer(ServerConfig.of(dir.resolve("t.db")).withPort(0).withHeartbeat(Duration.ofSeconds(60))
                .withLimits(Limits.DEFAULT.withMaxSseStreamsPerTenant(1)))) {
            assertThat(server.http.post("/v1/sessions", "{\"id\":\"s1\"}").status()).isEqualTo(201);
            URI url = server.server.url();
            try (Socket s = new Socket(url.getHost(), url.getPort())) {
                s.setSoTimeout(20_000);
                s.getOutputStream().write(("GET /v1/sessions/s1/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                        + "Authorization: Bearer " + server.http.key + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                StringBuilder seen = new StringBuilder();
                while (!seen.toString().contains(": threadline")) { // the stream is open and holds the tenant's one slot
                    int c = in.read();
                    assertThat(c).as("the stream's start, got " + seen).isGreaterThanOrEqualTo(0);
                    seen.append((char) c);
                }
                assertThat(openStreams(server)).isEqualTo(1);
            } // dropped
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (openStreams(server) != 0) {
                assertThat(System.nanoTime()).as("the slot of the dropped stream was still held after 10 s").isLessThan(deadline);
                LockSupport.parkNanos(20_000_000L); // polling the gauge: the server gives no signal to wait on
            }
            Http.Response again = server.http.get("/v1/sessions/s1/events?follow=false");
            assertThat(again.status()).as("the tenant's one slot is free again: " + again.body()).isEqualTo(200);
        }
    }

    private static int openStreams(TestServer server) {
        String metrics = server.http.as(null).get("/metrics").body();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^threadline_sse_streams_open (\\S+)$").matcher(metrics);
        assertThat(m.find()).as("the gauge in " + metrics).isTrue();
        return (int) Double.parseDouble(m.group(1));
    }
}
