package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a server refuses new requests at once, lets the running turn finish, ends observer
 * streams, and releases the session's lease: another server on the same file, told not to wait for
 * leases at all, runs the session's next turn.
 */
class GracefulShutdownTest {
    @TempDir
    Path dir;

    /** The demo model, held at its first call until released. */
    static final class GatedModel implements ChatModel {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final ChatModel demo = ScriptedModel.demo();

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public ChatResponse complete(ChatRequest request) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return demo.complete(request);
        }
    }

    @Test
    void closeLetsTheRunningTurnFinishThenReleasesTheLease() throws Exception {
        GatedModel model = new GatedModel();
        ServerConfig config = ServerConfig.of(dir.resolve("t.db")).withPort(0);
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        String key;
        try {
            ThreadlineServer first = ThreadlineServer.start(config.withModels(ModelResolver.always(model)));
            key = first.createdKey().orElseThrow().secret();
            Http http = new Http(first.url(), key);
            assertThat(http.post("/v1/sessions", "{\"id\":\"s1\"}").status()).isEqualTo(201);

            CompletableFuture<Http.Response> turn = CompletableFuture.supplyAsync(
                    () -> http.post("/v1/sessions/s1/messages", "{\"text\":\"what is 2+2\"}"), pool);
            assertThat(model.entered.await(30, TimeUnit.SECONDS)).isTrue();
            HttpResponse<InputStream> stream = http.stream(http.request("/v1/sessions/s1/events?after=0").GET().build());
            CompletableFuture<List<Http.Sse>> observed = CompletableFuture.supplyAsync(() -> {
                try {
                    return Http.readEvents(stream.body(), l -> false); // returns when the server ends the stream
                } catch (java.io.IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, pool);

            CompletableFuture<Void> closing = CompletableFuture.runAsync(first::close, pool);
            int tries = 0;
            while (http.as(null).get("/ready").status() != 503) {
                assertThat(++tries).as("the server never said it was shutting down").isLessThan(10_000);
            }
            Http.Response refused = http.post("/v1/sessions", "{\"id\":\"s2\"}");
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(closing).isNotDone(); // it waits for the turn

            model.release.countDown();
            Http.Response done = turn.get(30, TimeUnit.SECONDS);
            assertThat(done.status()).isEqualTo(200);
            assertThat(done.json().path("outcome").asText()).isEqualTo("COMPLETED");
            closing.get(30, TimeUnit.SECONDS);
            assertThat(observed.get(30, TimeUnit.SECONDS)).isNotNull(); // the server ended the observer's stream
        } finally {
            pool.shutdownNow();
        }

        try (ThreadlineServer second = ThreadlineServer.start(config.withLeaseWait(Duration.ZERO))) {
            Http http = new Http(second.url(), key);
            Http.Response next = http.post("/v1/sessions/s1/messages", "{\"text\":\"what is 3+3\"}");
            assertThat(next.status()).as(next.body()).isEqualTo(200); // a held lease would be a 409 at once
            assertThat(next.json().path("reply").asText()).contains("6");
        }
    }
}
