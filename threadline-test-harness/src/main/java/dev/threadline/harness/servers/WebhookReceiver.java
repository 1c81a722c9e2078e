package dev.threadline.harness.servers;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A webhook receiver on 127.0.0.1 (ephemeral port), on the JDK's HTTP server: it keeps every request it
 * gets (its {@code webhook-id}, {@code webhook-timestamp}, {@code webhook-signature} and body, in arrival
 * order) and answers each with the status set by {@link #answer} (204 at first), or keeps it unanswered
 * ({@link #holdFrom}). Tests wait for what they
 * expect with {@link #await}, which wakes on each request (no polling). Thread-safe.
 */
public final class WebhookReceiver implements AutoCloseable {
    /** One request as it arrived, with the status it was answered. */
    public record Delivery(String id, String timestamp, String signature, String body, int answered) {
    }

    private final HttpServer server;
    private final List<Delivery> received = new ArrayList<>();
    private final AtomicInteger status = new AtomicInteger(204);
    private volatile int holdFrom = Integer.MAX_VALUE;
    private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);

    /** Starts listening. */
    public WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                int answer = status.get();
                int index;
                synchronized (received) {
                    index = received.size();
                    received.add(new Delivery(exchange.getRequestHeaders().getFirst("webhook-id"),
                            exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                            exchange.getRequestHeaders().getFirst("webhook-signature"), body, answer));
                    received.notifyAll();
                }
                if (index >= holdFrom) {
                    try {
                        released.await(); // kept unanswered, as a receiver mid-delivery when its sender dies
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                exchange.sendResponseHeaders(answer, -1);
            }
        });
        server.start();
    }

    /** Where to send: {@code http://127.0.0.1:PORT/hook}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    /** Answers the next requests with {@code code}. */
    public void answer(int code) {
        status.set(code);
    }

    /** Keeps request number {@code n} (counting from 0) and every later one unanswered until {@link #release}. */
    public void holdFrom(int n) {
        holdFrom = n;
    }

    /** Answers the requests kept by {@link #holdFrom}, and every later one at once. */
    public void release() {
        holdFrom = Integer.MAX_VALUE;
        released.countDown();
    }

    /** Every request so far, in arrival order. */
    public List<Delivery> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /**
     * Waits until the requests so far satisfy {@code done}, up to {@code timeout}; returns them.
     *
     * @throws IllegalStateException when they do not within the timeout (naming what arrived)
     * @throws InterruptedException  when the waiting thread is interrupted
     */
    public List<Delivery> await(Predicate<List<Delivery>> done, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (received) {
            while (!done.test(List.copyOf(received))) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("the receiver did not get what was expected within " + timeout + "; it got "
                            + received.size() + ": " + received);
                }
                received.wait(Math.max(1, left / 1_000_000));
            }
            return List.copyOf(received);
        }
    }

    /** Stops listening. */
    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
