package dev.threadline.models.http;

import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How a provider talks HTTP: the client, the retry policy, the per-request timeout, and the sleeper,
 * clock and random source the retries use (injectable so tests neither sleep nor depend on chance).
 *
 * @param client  the JDK HTTP client (shared, thread-safe)
 * @param retry   when to retry and how long to wait
 * @param timeout how long one attempt may wait for the response to start (headers); a stream may then run longer
 * @param sleeper waits between attempts
 * @param clock   reads HTTP-date and RFC 3339 retry headers against "now"
 * @param random  numbers in [0, 1) for the backoff jitter
 */
public record HttpSettings(HttpClient client, RetryPolicy retry, Duration timeout, Sleeper sleeper, Clock clock,
                           DoubleSupplier random) {

    /** Connect within 10 s; wait up to 10 minutes for a response to start (long non-streamed replies). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    public HttpSettings {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(random, "random");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    /** A new HTTP client, the default retry policy and timeout, real sleeps, the system clock. */
    public static HttpSettings defaults() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        return new HttpSettings(client, RetryPolicy.DEFAULT, DEFAULT_TIMEOUT, Sleeper.SYSTEM, Clock.systemUTC(),
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /** These settings with {@code retry} as the retry policy. */
    public HttpSettings withRetry(RetryPolicy retry) {
        return new HttpSettings(client, retry, timeout, sleeper, clock, random);
    }

    /** These settings with {@code timeout} per request. */
    public HttpSettings withTimeout(Duration timeout) {
        return new HttpSettings(client, retry, timeout, sleeper, clock, random);
    }

    /** These settings with {@code sleeper} waiting between retries (tests pass one that does not sleep). */
    public HttpSettings withSleeper(Sleeper sleeper) {
        return new HttpSettings(client, retry, timeout, sleeper, clock, random);
    }

    /** These settings with {@code clock} reading {@code Retry-After} dates. */
    public HttpSettings withClock(Clock clock) {
        return new HttpSettings(client, retry, timeout, sleeper, clock, random);
    }

    /** These settings with {@code random} drawing retry jitter in [0, 1). */
    public HttpSettings withRandom(DoubleSupplier random) {
        return new HttpSettings(client, retry, timeout, sleeper, clock, random);
    }

    /** These settings with {@code client} sending the requests. */
    public HttpSettings withClient(HttpClient client) {
        return new HttpSettings(client, retry, timeout, sleeper, clock, random);
    }
}
