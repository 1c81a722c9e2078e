package dev.threadline.server.webhooks;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;

/**
 * Sends one signed delivery over HTTP (the JDK client, with a connect and a request timeout): a POST
 * of the JSON body with {@code webhook-id}, {@code webhook-timestamp} (the attempt's time) and
 * {@code webhook-signature}. Any 2xx answer is a delivery; anything else, a timeout or an I/O error is a
 * failed attempt. Thread-safe.
 */
final class Sender {
    /** What an attempt got: delivered, or why not. */
    record Outcome(boolean delivered, String error) {
    }

    private final HttpClient client;
    private final Duration timeout;
    private final Clock clock;

    Sender(Duration timeout, Clock clock) {
        this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        this.timeout = timeout;
        this.clock = clock;
    }

    Outcome send(Subscription to, String id, String body) {
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest request = HttpRequest.newBuilder(to.url()).timeout(timeout)
                .header("content-type", "application/json")
                .header("user-agent", "threadline-webhooks")
                .header("webhook-id", id)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", Signature.sign(to.secret(), id, timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            HttpResponse<Void> r = client.send(request, HttpResponse.BodyHandlers.discarding());
            return r.statusCode() / 100 == 2 ? new Outcome(true, null) : new Outcome(false, "HTTP " + r.statusCode());
        } catch (IOException e) {
            return new Outcome(false, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, "interrupted");
        }
    }

    void close() {
        client.close();
    }
}
