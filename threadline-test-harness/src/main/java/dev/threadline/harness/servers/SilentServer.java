package dev.threadline.harness.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A model server that accepts and never answers, on a raw socket of 127.0.0.1 (ephemeral port): it
 * reads each request and then waits; with {@code startStream} it first sends the 200 headers of an
 * event stream (and nothing after them). It notes when a connection's request has arrived and when the
 * client closed that connection (its read sees the end), which is how tests see that a cancelled call
 * let go of its connection. Thread-safe: each connection is served on a virtual thread of its own.
 */
public final class SilentServer implements AutoCloseable {
    private final ServerSocket socket;
    private final boolean startStream;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    /** Counted down when the first request has arrived (its headers read). */
    public final CountDownLatch requested = new CountDownLatch(1);
    /** Counted down when the client closed the first connection. */
    public final CountDownLatch closedByClient = new CountDownLatch(1);

    /**
     * Starts the server.
     *
     * @param startStream whether each request is answered with the 200 headers of an event stream (and
     *     nothing after them), as a streaming provider that stalls after accepting
     */
    public SilentServer(boolean startStream) {
        this.startStream = startStream;
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().name("silent-server").start(this::accept);
    }

    /** The server's root URL, e.g. {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /**
     * Whether the client closed its connection within {@code seconds}.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean awaitClosedByClient(long seconds) throws InterruptedException {
        return closedByClient.await(seconds, TimeUnit.SECONDS);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                connections.add(s);
                Thread.ofVirtual().name("silent-connection").start(() -> serve(s));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            readHeaders(in);
            requested.countDown();
            if (startStream) {
                out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            byte[] buf = new byte[8192];
            while (in.read(buf) >= 0) {
                // the request's body, then nothing: wait for the client to give up
            }
            closedByClient.countDown();
        } catch (IOException e) {
            if (!socket.isClosed()) {
                closedByClient.countDown(); // a reset by the client is a close too
            }
        }
    }

    private static void readHeaders(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        int b;
        while (matched < 4 && (b = in.read()) >= 0) {
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }

    /** Stops accepting and closes every connection. */
    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : connections) {
            s.close();
        }
    }
}
