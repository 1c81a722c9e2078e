package dev.threadline.server.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * A deadline for reading a request: a connection that has been sending one request's headers (or,
 * once they are in, its body) for longer than {@link Limits#readTimeoutMillis()} is closed. Jetty's idle
 * timeout alone never fires for a client that sends a byte every few seconds (a "slowloris"), which
 * would otherwise hold a connection, and a thread, for as long as it likes. A sweep every quarter of the
 * deadline looks at each open connection's parser; the deadline of a phase (headers, body) starts when a
 * sweep first sees the connection in it, so a connection is closed between one and one and a half
 * deadlines after it started. A connection between requests (idle) is left to the idle timeout. Started
 * and stopped with the Jetty server it is a bean of. Thread-safe.
 */
public final class SlowClients extends AbstractLifeCycle {
    private final Server server;
    private final long deadlineNanos;
    private final long sweepMillis;
    /** Per connection: what it was reading when first seen and since when. */
    private final Map<Connection, Reading> reading = new ConcurrentHashMap<>();
    private ScheduledExecutorService sweeper;

    private record Reading(Object phase, long since) {}

    /** Watches the connections of {@code server}, closing one that takes longer than {@code deadlineMillis} to send a request's headers or body. */
    public SlowClients(Server server, long deadlineMillis) {
        this.server = server;
        this.deadlineNanos = TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
        this.sweepMillis = Math.max(25, deadlineMillis / 4);
    }

    @Override
    protected void doStart() {
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof org.eclipse.jetty.server.AbstractConnector a) {
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
        reading.clear();
    }

    private void sweep() {
        long now = System.nanoTime();
        java.util.Set<Connection> seen = new java.util.HashSet<>();
        for (Connector connector : server.getConnectors()) {
            for (EndPoint ep : connector.getConnectedEndPoints()) {
                if (!(ep.getConnection() instanceof HttpConnection c)) {
                    continue;
                }
                Object phase = phase(c);
                if (phase == null) {
                    reading.remove(c);
                    continue;
                }
                seen.add(c);
                Reading r = reading.compute(c, (k, old) -> old != null && old.phase().equals(phase) ? old : new Reading(phase, now));
                if (now - r.since() >= deadlineNanos) {
                    reading.remove(c);
                    ep.close(new java.util.concurrent.TimeoutException("the request was not sent within the read timeout"));
                }
            }
        }
        reading.keySet().retainAll(seen);
    }

    /**
     * What the connection is reading, as a value that changes when it moves on: its headers (a request
     * line or header started), or a body (once a request is handling); null when it waits for nothing
     * (between requests, or a request read whole).
     */
    private static Object phase(HttpConnection c) {
        HttpParser p = c.getParser();
        if (p.inHeaderState() && !p.isStart()) {
            return "headers#" + c.getMessagesIn();
        }
        if (p.inContentState()) {
            return java.util.List.of("body", System.identityHashCode(c.getHttpChannel().getRequest()), c.getMessagesIn());
        }
        return null;
    }
}
