package dev.threadline.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A small JDK HttpClient wrapper for the tests: one base URL, one bearer key. */
final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Response(int status, String contentType, String body, java.net.http.HttpHeaders headers) {
        JsonNode json() {
            return Json.parse(body, "response");
        }
    }

    /** One server-sent event. */
    record Sse(String id, String event, String data) {
        JsonNode json() {
            return Json.parse(data, "data");
        }
    }

    final URI base;
    final String key;

    Http(URI base, String key) {
        this.base = base;
        this.key = key;
    }

    Http as(String otherKey) {
        return new Http(base, otherKey);
    }

    HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        return b;
    }

    Response get(String path) {
        return send(request(path).GET().build());
    }

    Response delete(String path) {
        return send(request(path).DELETE().build());
    }

    Response post(String path, String json, String... headers) {
        HttpRequest.Builder b = request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    static Response send(HttpRequest r) {
        try {
            return sendOnce(r);
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof java.util.concurrent.ExecutionException x && x.getCause() instanceof IOException io
                    && String.valueOf(io.getMessage()).contains("received no bytes")) {
                // the pooled connection was closed by the server as it was reused: nothing reached the server, send again once
                return sendOnce(r);
            }
            throw e;
        }
    }

    private static Response sendOnce(HttpRequest r) {
        try {
            // bounded as a whole: a request's own timeout ends at the headers, and a stream's body may never end
            HttpResponse<String> res = CLIENT.sendAsync(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                    .get(60, java.util.concurrent.TimeUnit.SECONDS);
            return new Response(res.statusCode(), res.headers().firstValue("Content-Type").orElse(""), res.body(), res.headers());
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("request failed or took over 60 s: " + r.method() + " " + r.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Opens an SSE response (status checked by the caller). */
    HttpResponse<InputStream> stream(HttpRequest r) {
        try {
            return CLIENT.send(r, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Reads events from an SSE body until {@code stop} says so or the stream ends. */
    static List<Sse> readEvents(InputStream body, java.util.function.Predicate<List<Sse>> stop) throws IOException {
        List<Sse> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String id = null;
            String event = null;
            StringBuilder data = null;
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data != null) {
                        out.add(new Sse(id, event, data.toString()));
                        if (stop.test(out)) {
                            return out;
                        }
                    }
                    id = null;
                    event = null;
                    data = null;
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = data == null ? new StringBuilder(line.substring(6)) : data.append('\n').append(line.substring(6));
                }
            }
        }
        return out;
    }
}
