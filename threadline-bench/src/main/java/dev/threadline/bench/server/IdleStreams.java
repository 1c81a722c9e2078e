package dev.threadline.bench.server;

import dev.threadline.core.runtime.Session;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Idle observers: raw-socket SSE clients of {@code GET /v1/sessions/{id}/events} that read only up to
 * the stream's opening comment and then hold the connection (so the client costs the server nothing
 * but the open stream), and their in-process counterpart, virtual threads waiting in
 * {@link Session#awaitEvents} as the server's stream handler does. Not thread-safe; one owner.
 */
final class IdleStreams implements AutoCloseable {
    private static final byte[] OPENED = ": threadline\n\n".getBytes(StandardCharsets.US_ASCII);

    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> observers = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    final Map<String, Integer> failed = new TreeMap<>();
    int opened;

    /** Opens one stream per id, one after another; counts the ones that opened and the failures by kind. */
    void openHttp(URI base, String key, List<String> ids) {
        for (String id : ids) {
            Socket s = null;
            try {
                s = new Socket(base.getHost(), base.getPort());
                s.setSoTimeout(30_000);
                OutputStream out = s.getOutputStream();
                out.write(("GET /v1/sessions/" + id + "/events HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                        + "\r\nAuthorization: Bearer " + key + "\r\nAccept: text/event-stream\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String head = readUntilOpened(s.getInputStream());
                if (!head.startsWith("HTTP/1.1 200")) {
                    count(head.isEmpty() ? "closed" : head.substring(0, Math.min(12, head.length())));
                    s.close();
                    continue;
                }
                sockets.add(s);
                opened++;
            } catch (IOException e) {
                count(e.getClass().getSimpleName());
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // already failing
                    }
                }
            }
        }
    }

    /** One virtual thread per session, each looping in {@code awaitEvents} until {@link #close}. */
    void openInProcess(List<Session> sessions, Duration heartbeat) {
        for (Session s : sessions) {
            long cursor = s.state().seq();
            observers.add(Thread.ofVirtual().start(() -> {
                long c = cursor;
                while (!stop.get()) {
                    try {
                        for (var e : s.history().awaitEvents(c, heartbeat)) {
                            c = e.seq();
                        }
                    } catch (RuntimeException ended) {
                        return;
                    }
                }
            }));
            opened++;
        }
    }

    /** The bytes read up to and including the opening comment, or whatever came before the stream ended. */
    private static String readUntilOpened(InputStream in) throws IOException {
        StringBuilder seen = new StringBuilder();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            seen.append((char) b);
            matched = b == OPENED[matched] ? matched + 1 : (b == OPENED[0] ? 1 : 0);
            if (matched == OPENED.length) {
                break;
            }
        }
        return seen.toString();
    }

    private void count(String kind) {
        failed.merge(kind, 1, Integer::sum);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        for (Thread t : observers) {
            t.interrupt();
        }
        for (Thread t : observers) {
            t.join(10_000);
        }
    }
}
