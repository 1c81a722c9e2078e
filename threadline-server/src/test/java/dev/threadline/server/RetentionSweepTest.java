package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.server.keys.KeyStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server sweeps its store for expired sessions on its own (issue 24): a tenant's default ttl and a
 * create's own both apply, what expired goes, the rest stays, the metrics count it, and the server's own
 * keys never expire whatever the default. Expiry follows the runtime's clock, moved by the test; the
 * sweeps run every 20 ms of real time, and the test waits (bounded) for their effect.
 */
class RetentionSweepTest {
    @TempDir
    Path dir;

    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }
    }

    @Test
    void expiredSessionsGoOnTheirOwnAndTheRestStays() {
        MovableClock clock = new MovableClock();
        try (Threadline runtime = Threadline.builder().store("sqlite:" + dir.resolve("t.db")).clock(clock).model(ScriptedModel.demo())
                .sessionTtl(tenant -> Duration.ofHours(1)).build();
             ThreadlineServer server = ThreadlineServer.start(runtime, ServerConfig.of(dir.resolve("unused.db")).withPort(0)
                     .withRetention(RetentionPolicy.DEFAULT.withSweepEvery(Duration.ofMillis(20))))) {
            Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
            assertThat(http.post("/v1/sessions", "{\"id\":\"by-default\"}").json().path("expiresAt").asText()).startsWith("2026-01-01T01:00");
            assertThat(http.post("/v1/sessions", "{\"id\":\"own\",\"ttlSeconds\":10800}").status()).isEqualTo(201);
            assertThat(http.post("/v1/sessions/by-default/messages", "{\"text\":\"what is 2+2\"}").status()).isEqualTo(200);
            assertThat(runtime.tenant(KeyStore.TENANT).open("api-keys").info().expiresAt()).as("the keys never expire").isNull();

            clock.advance(Duration.ofHours(2));
            awaitGone(http, "/v1/sessions/by-default");
            assertThat(http.get("/v1/sessions/own").status()).isEqualTo(200);
            assertThat(http.get("/v1/sessions").status()).as("the key still works").isEqualTo(200);
            assertThat(http.as(null).get("/metrics").body()).contains("threadline_sweep_sessions_total{outcome=\"removed\"} 1.0",
                    "threadline_sweep_passes_total{result=\"ok\"}");

            clock.advance(Duration.ofHours(2));
            awaitGone(http, "/v1/sessions/own");
        }
    }

    @Test
    void pruningPassesAreCountedInTheMetricsAndThePrunedSessionGoesOn() {
        try (ThreadlineServer server = ThreadlineServer.start(ServerConfig.ofStore("sqlite:" + dir.resolve("p.db")).withPort(0)
                .withRetention(RetentionPolicy.DEFAULT.withHistoryKeep(dev.threadline.core.runtime.PrunePolicy.keepLatest(2),
                        Duration.ofMillis(20))))) {
            Http http = new Http(server.url(), server.createdKey().orElseThrow().secret());
            assertThat(http.post("/v1/sessions", "{\"id\":\"long\"}").status()).isEqualTo(201);
            for (int i = 0; i < 4; i++) {
                assertThat(http.post("/v1/sessions/long/messages", "{\"text\":\"what is " + i + "+1\"}").status()).isEqualTo(200);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String metrics = http.as(null).get("/metrics").body();
            java.util.regex.Pattern pruned = java.util.regex.Pattern.compile("threadline_prune_sessions_total\\{outcome=\"pruned\"} [1-9]");
            while (!pruned.matcher(metrics).find()) {
                assertThat(System.nanoTime()).as("no pruning counted after 30 s:%n%s", metrics).isLessThan(deadline);
                Thread.onSpinWait();
                metrics = http.as(null).get("/metrics").body();
            }
            assertThat(metrics).contains("threadline_prune_passes_total{result=\"ok\"}")
                    .containsPattern("threadline_prune_events_total [1-9]");
            assertThat(http.post("/v1/sessions/long/messages", "{\"text\":\"what is 9+1\"}").json().path("reply").asText()).contains("10");
        }
    }

    @Test
    void aCallersRuntimeKeepsItsOwnDefaultTtl() {
        try (Threadline runtime = Threadline.builder().store("memory:").model(ScriptedModel.demo()).build()) {
            assertThatThrownBy(() -> ThreadlineServer.start(runtime, ServerConfig.ofStore("memory:").withPort(0)
                    .withRetention(RetentionPolicy.DEFAULT.withSessionTtl(Duration.ofDays(1)))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl").hasMessageContaining("Threadline.builder()");
        }
    }

    @Test
    void aPolicyOutOfRangeIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> RetentionPolicy.DEFAULT.withSweepLimit(0)).hasMessageContaining("sweepLimit");
        assertThatThrownBy(() -> RetentionPolicy.DEFAULT.withSweepEvery(Duration.ofSeconds(-1))).hasMessageContaining("sweepEvery");
        assertThatThrownBy(() -> RetentionPolicy.DEFAULT.withSessionTtl(Duration.ZERO)).hasMessageContaining("sessionTtl");
    }

    /** Waits, at most 30 s, until {@code path} answers 404. */
    private static void awaitGone(Http http, String path) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (http.get(path).status() != 404) {
            assertThat(System.nanoTime()).as("%s still there after 30 s", path).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
