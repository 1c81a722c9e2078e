package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code /metrics} publishes (issue 26, items 12 and 16): numbers, not NaN. */
class PublicMetricsTest {
    @TempDir
    Path dir;
    TestServer server;

    @BeforeEach
    void start() {
        server = new TestServer(ServerConfig.of(dir.resolve("metrics.db")).withPort(0).withModels(TestModels.resolver()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String scrape() {
        Http.Response r = server.http.as(null).get("/metrics");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    @Test
    void commandsQueuedIsANumberNotNaNAfterAGarbageCollection() {
        System.gc(); // a gauge over a reference nothing else holds reads NaN once it is collected
        System.gc();
        assertThat(scrape().lines().filter(l -> l.startsWith("threadline_commands_queued ")))
                .containsExactly("threadline_commands_queued 0.0");
    }
}
