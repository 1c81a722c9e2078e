package dev.threadline.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Turns over HTTP against a running {@code threadline serve}: {@code POST /v1/sessions} and
 * {@code POST /v1/sessions/{id}/messages} (the JSON answer, not the stream), with the JDK's HTTP/1.1
 * client on virtual threads, keep-alive connections. Thread-safe.
 */
final class HttpTurns implements Turns {
    private final ServerUnderTest server;
    private final String key;
    private final Duration timeout;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;

    HttpTurns(ServerUnderTest server, Duration timeout) {
        this.server = server;
        this.key = server.key();
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @Override
    public String name() {
        return "HTTP";
    }

    @Override
    public void create(List<String> ids) throws Exception {
        for (String id : ids) {
            HttpResponse<String> r = post("/v1/sessions", Json.write(Map.of("id", id)), null);
            if (r.statusCode() != 201) {
                throw new IllegalStateException("POST /v1/sessions answered " + r.statusCode() + ": " + r.body());
            }
        }
    }

    @Override
    public void turn(String id, String text) throws Exception {
        turn(id, text, null);
    }

    /**
     * {@link #turn(String, String)} with header {@code Idempotency-Key: key} (none when null): a repeat
     * with the same key, on any node of the store, returns the first result and appends nothing.
     */
    void turn(String id, String text, String key) throws Exception {
        HttpResponse<String> r = post("/v1/sessions/" + id + "/messages", Json.write(Map.of("text", text)), key);
        if (r.statusCode() != 200) {
            throw new OpenLoop.Failure("HTTP " + r.statusCode(), r.body());
        }
        JsonNode result = Json.mapper().readTree(r.body());
        String outcome = result.path("outcome").asText();
        if (!"COMPLETED".equals(outcome)) {
            throw new OpenLoop.Failure("turn ended " + outcome, r.body());
        }
        if (result.path("toolCalls").asInt() < 1) {
            throw new OpenLoop.Failure("turn without a completed tool call", r.body());
        }
    }

    private HttpResponse<String> post(String path, String json, String idempotencyKey) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.url().resolve(path)).timeout(timeout)
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new OpenLoop.Failure("timeout after " + timeout.toSeconds() + " s", e.getMessage());
        } catch (java.io.IOException e) {
            throw new OpenLoop.Failure("I/O: " + e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
        }
    }

    URI url() {
        return server.url();
    }

    String key() {
        return key;
    }

    @Override
    public Memory memory() {
        return server.memory();
    }

    @Override
    public void close() {
        client.close();
        executor.close();
    }
}
