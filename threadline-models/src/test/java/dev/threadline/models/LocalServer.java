package dev.threadline.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) that answers with scripted replies in order, in
 * a provider's wire format, and records every request. Not a mock of the client: the providers talk
 * to it over a socket exactly as they talk to the real API.
 */
public final class LocalServer implements AutoCloseable {

    /** One scripted answer. */
    public sealed interface Reply {
    }

    /** A whole body with a status and headers. */
    public record Body(int status, Map<String, String> headers, String body) implements Reply {
    }

    /** A 200 text/event-stream whose events are written and flushed one at a time. */
    public record Sse(List<String> events) implements Reply {
    }

    /** One request as the server saw it. */
    public record Recorded(String method, String path, Map<String, List<String>> headers, String body) {
        public JsonNode json() {
            return Json.parse(body, "request body");
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst()
                    .map(e -> e.getValue().getFirst()).orElse(null);
        }
    }

    private final HttpServer server;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<Recorded> requests = new ArrayList<>();

    private LocalServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public static LocalServer start() {
        try {
            return new LocalServer();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the local test server", e);
        }
    }

    /** {@code http://127.0.0.1:PORT} */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public synchronized LocalServer reply(Reply reply) {
        replies.add(reply);
        return this;
    }

    public LocalServer json(int status, String body) {
        return reply(new Body(status, Map.of("content-type", "application/json"), body));
    }

    public LocalServer json(int status, Map<String, String> headers, String body) {
        return reply(new Body(status, headers, body));
    }

    public LocalServer sse(String... events) {
        return reply(new Sse(List.of(events)));
    }

    public synchronized List<Recorded> requests() {
        return List.copyOf(requests);
    }

    public Recorded request(int i) {
        return requests().get(i);
    }

    private void handle(HttpExchange ex) throws IOException {
        Reply reply;
        synchronized (this) {
            requests.add(new Recorded(ex.getRequestMethod(), ex.getRequestURI().getPath(), Map.copyOf(ex.getRequestHeaders()),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            reply = replies.poll();
        }
        try (ex) {
            switch (reply) {
                case null -> send(ex, new Body(418, Map.of(), "{\"error\":{\"message\":\"the test scripted no reply for this request\"}}"));
                case Body b -> send(ex, b);
                case Sse s -> {
                    ex.getResponseHeaders().add("content-type", "text/event-stream");
                    ex.sendResponseHeaders(200, 0);
                    OutputStream out = ex.getResponseBody();
                    for (String event : s.events()) {
                        out.write(event.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
            }
        }
    }

    private static void send(HttpExchange ex, Body b) throws IOException {
        b.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        byte[] bytes = b.body().getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(b.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            ex.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
