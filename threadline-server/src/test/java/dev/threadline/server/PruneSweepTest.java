package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.PrunePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's sweeper prunes its tenants' histories (ADR 0045) when its retention keeps a bounded history:
 * the pass is called directly here (no timer), then the API answers a pruned checkpoint with 410
 * {@code history-pruned} naming the session, the seq and the policy, and the session still takes turns.
 */
class PruneSweepTest {
    @TempDir
    Path dir;

    @Test
    void theSweeperPrunesEveryTenantsSessionsAndAPrunedCheckpointIsA410() {
        RetentionPolicy retention = RetentionPolicy.DEFAULT.withSweepEvery(Duration.ZERO).withHistoryKeep(PrunePolicy.keepLatest(2),
                Duration.ofHours(1));
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("p.db")).model(ScriptedModel.demo()).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0)
                     .withRetention(retention))) {
            Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
            assertThat(http.post("/v1/sessions", "{\"id\":\"s\"}").status()).isEqualTo(201);
            for (int i = 0; i < 6; i++) {
                assertThat(http.post("/v1/sessions/s/messages", "{\"text\":\"turn " + i + "\"}").status()).isEqualTo(200);
            }
            Sweeper sweeper = Sweeper.start(runtime, retention, new ServerMetrics(List.of()), () -> List.of("default"));
            try {
                sweeper.prune();
            } finally {
                sweeper.close();
            }

            Http.Response pruned = http.get("/v1/sessions/s/checkpoints/2");
            assertThat(pruned.status()).isEqualTo(410);
            assertThat(pruned.json().path("type").asText()).endsWith("history-pruned");
            assertThat(pruned.json().path("detail").asText()).contains("session 's' seq 2").contains("keep the latest 2 checkpoints");
            assertThat(http.get("/v1/sessions/s/checkpoints").json().path("items")).hasSize(2);
            assertThat(http.post("/v1/sessions/s/messages", "{\"text\":\"after\"}").status()).isEqualTo(200);
        }
    }
}
