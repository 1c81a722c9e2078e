package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.llm.ModelResolver;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline_turns_running} and {@code threadline_commands_queued} read the engine's registry of
 * what runs ({@code Threadline.live()}): one turn held in its model call counts 1 running, a second
 * message to the same session counts 1 queued behind it, and both read 0 once the turns have ended.
 */
class LiveGaugesTest {
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path dir;

    @Test
    void aHeldTurnRunsAndTheMessageBehindItIsQueued() throws Exception {
        GracefulShutdownTest.GatedModel model = new GracefulShutdownTest.GatedModel();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try (TestServer server = new TestServer(ServerConfig.of(dir.resolve("live.db")).withPort(0)
                .withModels(ModelResolver.always(model)))) {
            Http http = server.http;
            assertThat(http.post("/v1/sessions", "{\"id\":\"s1\"}").status()).isEqualTo(201);
            CompletableFuture<Http.Response> first = CompletableFuture.supplyAsync(
                    () -> http.post("/v1/sessions/s1/messages", "{\"text\":\"what is 2+2\"}"), pool);
            assertThat(model.entered.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Http.Response> second = CompletableFuture.supplyAsync(
                    () -> http.post("/v1/sessions/s1/messages", "{\"text\":\"what is 3+3\"}"), pool); // enqueued: the default

            String held = awaitScrape(http, m -> gauge(m, "threadline_commands_queued") == 1.0);
            assertThat(gauge(held, "threadline_turns_running")).as("the held turn runs; the queued one does not yet").isEqualTo(1.0);

            model.release.countDown();
            assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(second.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            String after = awaitScrape(http, m -> gauge(m, "threadline_turns_running") == 0.0);
            assertThat(gauge(after, "threadline_commands_queued")).isEqualTo(0.0);
        } finally {
            model.release.countDown();
            pool.shutdownNow();
        }
    }

    /** Scrapes {@code /metrics} until {@code ready} holds (the gauges are read, not waited on, so a moment may pass). */
    private static String awaitScrape(Http http, Predicate<String> ready) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        String metrics;
        do {
            Http.Response r = http.as(null).get("/metrics");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            metrics = r.body();
        } while (!ready.test(metrics) && System.nanoTime() < deadline);
        assertThat(ready.test(metrics)).as(metrics).isTrue();
        return metrics;
    }

    /** The value of an untagged gauge in a scrape, or NaN when it is missing. */
    private static double gauge(String metrics, String name) {
        return metrics.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1)))
                .findFirst().orElse(Double.NaN);
    }
}
