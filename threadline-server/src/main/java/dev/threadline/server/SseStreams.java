package dev.threadline.server;

import dev.threadline.server.http.ApiException;
import dev.threadline.server.http.SseWriter;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open server-sent-event streams: opens them on a response (framed by {@link SseWriter}), counts
 * them, and ends them all at shutdown (by interrupting the threads that serve them). Thread-safe.
 */
final class SseStreams {
    private final Set<Thread> serving = ConcurrentHashMap.newKeySet();
    private final ServerMetrics metrics;
    private final int maxPerTenant;
    private final ConcurrentHashMap<String, Integer> perTenant = new ConcurrentHashMap<>();

    SseStreams(ServerMetrics metrics, int maxPerTenant) {
        this.metrics = metrics;
        this.maxPerTenant = maxPerTenant;
    }

    /** A tenant's place for one stream on this node, given back on close. */
    final class Slot implements AutoCloseable {
        private final String tenant;
        private boolean closed;

        private Slot(String tenant) {
            this.tenant = tenant;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                perTenant.computeIfPresent(tenant, (t, n) -> n <= 1 ? null : n - 1);
            }
        }
    }

    /**
     * Takes one of the tenant's stream places on this node, before anything of the request runs.
     *
     * @throws ApiException 429 when the tenant has {@link Limits#maxSseStreamsPerTenant()} streams open here
     */
    Slot reserve(String tenant) {
        boolean[] taken = {false};
        perTenant.compute(tenant, (t, n) -> {
            int open = n == null ? 0 : n;
            if (open >= maxPerTenant) {
                return n;
            }
            taken[0] = true;
            return open + 1;
        });
        if (!taken[0]) {
            throw new ApiException(429, "too-many-streams", null, "your tenant has " + maxPerTenant
                    + " event streams open on this node, the server's limit; close one, or retry later");
        }
        return new Slot(tenant);
    }

    /**
     * Starts an SSE response on {@code ctx} ({@link SseWriter} frames it), served by the calling thread
     * until the stream is closed. An observer's stream is ended by {@link #closeAll}; a turn's stream
     * ends with its turn.
     */
    Stream open(Context ctx, boolean observer) throws IOException {
        metrics.sseOpen().incrementAndGet(); // before the stream's first bytes: a client that sees them sees it counted
        SseWriter writer;
        try {
            writer = SseWriter.start(ctx);
        } catch (IOException | RuntimeException e) {
            metrics.sseOpen().decrementAndGet();
            throw e;
        }
        if (observer) {
            serving.add(Thread.currentThread());
        }
        return new Stream(writer);
    }

    /** Ends every observer's stream (their threads see an interrupt and close). */
    void closeAll() {
        serving.forEach(Thread::interrupt);
    }

    /** One SSE response, counted while open. Used by the one thread that serves it. */
    final class Stream implements AutoCloseable {
        private final SseWriter writer;
        private boolean closed;

        private Stream(SseWriter writer) {
            this.writer = writer;
        }

        /** Whether the client has closed its side ({@link SseWriter#clientGone}). */
        boolean clientGone() {
            return writer.clientGone();
        }

        /** Sends one event ({@link SseWriter#event}). */
        void event(Long id, String name, String json) throws IOException {
            writer.event(id, name, json);
        }

        /** Sends a comment line ({@link SseWriter#comment}). */
        void comment(String text) throws IOException {
            writer.comment(text);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                serving.remove(Thread.currentThread());
                metrics.sseOpen().decrementAndGet();
                Thread.interrupted(); // an interrupt meant for this stream must not leak into the pooled thread
            }
        }
    }
}
