package dev.threadline.server.http;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * A deadline for reading a request: a connection that has been sending one request's headers (or,
 * once they are in, its body) for longer than {@code Limits.readTimeoutMillis()} is closed. Jetty's idle
 * timeout alone never fires for a client that sends a byte every few seconds (a "slowloris"), which
 * would otherwise hold a connection, and a thread, for as long as it likes. Only Jetty's public API is used
 * (its parser is internal to its module), so the server runs as a named module:
 * <ul>
 *   <li>headers: a sweep every quarter of the deadline reads each connection's counters (requests whose
 *       headers are in, responses begun, bytes read). Bytes read while every request so far has its response
 *       are the next request's headers; that phase starts when a sweep first sees such bytes, so a connection
 *       is closed between one and one and a half deadlines after its headers started;</li>
 *   <li>a body: the server's handler ({@link #handler()}) times its reads from the first byte of the body;
 *       a read after the deadline closes the connection (and the read fails).</li>
 * </ul>
 * A connection between requests (idle) is left to the idle timeout, which is the same deadline. Started
 * and stopped with the Jetty server it is a bean of. Thread-safe.
 */
public final class SlowClients extends AbstractLifeCycle {
    private final Server server;
    private final long deadlineNanos;
    private final long sweepMillis;
    /** Per connection: what the last sweep saw of it. */
    private final Map<Connection, Seen> seen = new ConcurrentHashMap<>();
    private ScheduledExecutorService sweeper;

    /**
     * A connection's counters as a sweep saw them: requests whose headers were in, responses begun, and the
     * bytes it had read when those last moved; and, while it reads a request's headers, since when.
     */
    private record Seen(long requests, long responses, long bytesAtRest, boolean readingHead, long since) {}

    /** Watches the connections of {@code server}, closing one that takes longer than {@code deadlineMillis} to send a request's headers or body. */
    public SlowClients(Server server, long deadlineMillis) {
        this.server = server;
        this.deadlineNanos = TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
        this.sweepMillis = Math.max(25, deadlineMillis / 4);
    }

    /**
     * The server-wide handler that times request bodies: set it as the {@code server}'s handler before the
     * application's handlers are attached inside it.
     */
    public Handler.Wrapper handler() {
        return new Handler.Wrapper() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Handler next = getHandler();
                return next != null && next.handle(new TimedBody(request), response, callback);
            }
        };
    }

    @Override
    protected void doStart() {
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof AbstractConnector a) {
                a.setIdleTimeout(TimeUnit.NANOSECONDS.toMillis(deadlineNanos)); // nothing read or written for that long
            }
        }
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "threadline-slow-clients");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void doStop() {
        sweeper.shutdownNow();
        seen.clear();
    }

    private void sweep() {
        long now = System.nanoTime();
        Set<Connection> open = new HashSet<>();
        for (Connector connector : server.getConnectors()) {
            for (EndPoint ep : connector.getConnectedEndPoints()) {
                Connection c = ep.getConnection();
                if (c == null || c.getMessagesIn() < 0) {
                    continue; // not an HTTP/1 connection (those count their messages)
                }
                open.add(c);
                Seen s = seen.compute(c, (k, old) -> next(old, c, now));
                if (s.readingHead() && now - s.since() >= deadlineNanos) {
                    seen.remove(c);
                    ep.close(new TimeoutException("the request was not sent within the read timeout"));
                }
            }
        }
        seen.keySet().retainAll(open);
    }

    /**
     * What a sweep at {@code now} makes of {@code c}, given what the last one saw. The counters are read
     * response first: a request that ends between the reads then looks in progress, never idle with new bytes.
     */
    private static Seen next(Seen old, Connection c, long now) {
        long responses = c.getMessagesOut();
        long requests = c.getMessagesIn();
        long bytes = c.getBytesIn();
        if (old == null || old.requests() != requests || old.responses() != responses) {
            // first seen, or a request moved on: bytes from here on belong to what comes next (a new connection's bytes are all its first request's)
            long atRest = old == null && requests == 0 ? 0 : bytes;
            return new Seen(requests, responses, atRest, bytes > atRest && requests <= responses, now);
        }
        boolean readingHead = requests <= responses && bytes > old.bytesAtRest(); // no request in progress, yet bytes came
        if (!readingHead) {
            return old.readingHead() ? new Seen(requests, responses, old.bytesAtRest(), false, now) : old;
        }
        return old.readingHead() ? old : new Seen(requests, responses, old.bytesAtRest(), true, now);
    }

    /** A request whose body must arrive within the deadline, counted from its first byte. */
    private final class TimedBody extends Request.Wrapper {
        private long firstByte = -1;
        private boolean done;

        TimedBody(Request wrapped) {
            super(wrapped);
        }

        @Override
        public Content.Chunk read() {
            Content.Chunk chunk = super.read();
            if (chunk == null || done) {
                return chunk;
            }
            if (chunk.isLast() || Content.Chunk.isFailure(chunk)) {
                done = true;
                return chunk;
            }
            long now = System.nanoTime();
            if (firstByte < 0) {
                firstByte = now;
            } else if (now - firstByte >= deadlineNanos) {
                done = true;
                chunk.release();
                TimeoutException late = new TimeoutException("the request body was not sent within the read timeout");
                getConnectionMetaData().getConnection().getEndPoint().close(late);
                return Content.Chunk.from(late, true);
            }
            return chunk;
        }
    }
}
