package dev.threadline.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Regression: "MCP server 'everything' could not be started: Failed to enqueue message" (CI, stop 21).
 * The SDK's stdio transport failed a send when another thread sent at the same moment, which the client
 * itself does when a server announces a changed tool list while the caller lists the tools.
 */
class ConcurrentSendsTest {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 250;

    @Test
    void failedToEnqueueMessage_concurrentSendsAllReachTheServer() throws Exception {
        ServerParameters params = ServerParameters.builder("node")
                .args(List.of(ReferenceServers.script("server-everything"), "stdio")).build();
        WatchedStdioTransport transport = new WatchedStdioTransport(params, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> { });
        Set<Object> answered = ConcurrentHashMap.newKeySet();
        CountDownLatch allAnswered = new CountDownLatch(THREADS * PER_THREAD);
        transport.connect(in -> in.doOnNext(m -> {
            if (m instanceof McpSchema.JSONRPCResponse r && answered.add(r.id())) {
                allAnswered.countDown();
            }
        })).block(Duration.ofSeconds(30));
        try {
            Map<String, Throwable> failed = new ConcurrentHashMap<>();
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                senders.add(Thread.ofPlatform().name("sender-" + t).start(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < PER_THREAD; i++) {
                        String id = thread + "-" + i;
                        try {
                            transport.sendMessage(new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, "ping", id, null))
                                    .block(Duration.ofSeconds(10));
                        } catch (RuntimeException e) {
                            failed.put(id, e);
                        }
                    }
                }));
            }
            for (Thread s : senders) {
                s.join();
            }
            assertThat(failed).as("sends that failed").isEmpty();
            // every ping was written whole, one per line: the server answered every id (the latch counts distinct ids)
            assertThat(allAnswered.await(60, TimeUnit.SECONDS)).as("answered %d of %d", answered.size(),
                    THREADS * PER_THREAD).isTrue();
        } finally {
            transport.closeGracefully().block(Duration.ofSeconds(10));
        }
    }
}
