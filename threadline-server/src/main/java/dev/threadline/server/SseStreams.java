package dev.threadline.server;

import dev.threadline.server.http.Limits;
import dev.threadline.server.http.ApiException;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open server-sent-event streams: opens them on a response, counts them, and ends them all at
 * shutdown (by interrupting the threads that serve them). Thread-safe.
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
     * Starts an SSE response on {@code ctx}, served by the calling thread until the stream is closed.
     * An observer's stream is ended by {@link #closeAll}; a turn's stream ends with its turn.
     */
    Stream open(Context ctx, boolean observer) throws IOException {
        ctx.status(200);
        ctx.res().setContentType("text/event-stream;charset=utf-8");
        ctx.res().setHeader("Cache-Control", "no-cache");
        ctx.res().setHeader("X-Accel-Buffering", "no");
        OutputStream out = ctx.res().getOutputStream();
        if (observer) {
            serving.add(Thread.currentThread());
        }
        metrics.sseOpen().incrementAndGet();
        Stream s = new Stream(out, endPoint(ctx));
        s.comment("threadline");
        return s;
    }

    /** Ends every observer's stream (their threads see an interrupt and close). */
    void closeAll() {
        serving.forEach(Thread::interrupt);
    }

    /** The connection under {@code ctx}, to see whether its client closed it; null when that cannot be known. */
    private static org.eclipse.jetty.io.EndPoint endPoint(Context ctx) {
        try {
            return org.eclipse.jetty.ee10.servlet.ServletContextRequest.getServletContextRequest(ctx.req())
                    .getConnectionMetaData().getConnection().getEndPoint();
        } catch (RuntimeException unknown) {
            return null;
        }
    }

    /** One SSE response. Used by the one thread that serves it. */
    final class Stream implements AutoCloseable {
        private final OutputStream out;
        private final org.eclipse.jetty.io.EndPoint endPoint;
        private final java.nio.ByteBuffer probe = java.nio.ByteBuffer.allocate(64);
        private boolean closed;

        private Stream(OutputStream out, org.eclipse.jetty.io.EndPoint endPoint) {
            this.out = out;
            this.endPoint = endPoint;
        }

        /**
         * Whether the client has closed its side, without writing: a read of the connection that does not
         * wait (the request was read whole, so nothing of it is taken; a client sends nothing more on a
         * stream, and anything it does is dropped). A write only fails at the second write after the
         * client left, which for an idle stream is two heartbeats later.
         */
        boolean clientGone() {
            if (endPoint == null) {
                return false;
            }
            try {
                probe.clear().flip(); // Jetty's buffers are filled from their limit
                return !endPoint.isOpen() || endPoint.fill(probe) < 0;
            } catch (IOException | RuntimeException gone) {
                return true;
            }
        }

        /** Sends one event: {@code id:} (when not null), {@code event:} and one {@code data:} line of JSON. */
        void event(Long id, String name, String json) throws IOException {
            StringBuilder b = new StringBuilder(json.length() + 64);
            if (id != null) {
                b.append("id: ").append(id).append('\n');
            }
            b.append("event: ").append(name).append('\n').append("data: ").append(json).append("\n\n");
            write(b.toString());
        }

        /** Sends a comment line (clients ignore it; a failed write shows the client is gone). */
        void comment(String text) throws IOException {
            write(": " + text + "\n\n");
        }

        private void write(String s) throws IOException {
            out.write(s.getBytes(StandardCharsets.UTF_8));
            out.flush();
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
