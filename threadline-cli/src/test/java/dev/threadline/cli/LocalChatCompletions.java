package dev.threadline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.threadline.core.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A real local HTTP server on a free loopback port that speaks the OpenAI chat-completions format at
 * {@code /v1/chat/completions}, as Ollama, vLLM and llama.cpp do: each request is kept (body and
 * {@code Authorization} header) and answered with the body {@code reply} gives for it, with status 400
 * when that body is an {@code {"error":…}} object, else 200. Thread-safe.
 */
final class LocalChatCompletions implements AutoCloseable {
    /** The requests' bodies, in arrival order. */
    final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    /** Each request's {@code Authorization} header ({@code "null"} when it had none). */
    final List<String> authorization = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    /** Starts the server; {@code reply} maps a request's body to the response body. */
    LocalChatCompletions(Function<JsonNode, String> reply) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/chat/completions", ex -> {
            JsonNode request = Json.parse(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), "request");
            requests.add(request);
            authorization.add(String.valueOf(ex.getRequestHeaders().getFirst("authorization")));
            String body = reply.apply(request);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("content-type", "application/json");
            ex.sendResponseHeaders(body.startsWith("{\"error\"") ? 400 : 200, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
        server.start();
    }

    /** The API root to give as {@code --base-url}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
