package dev.threadline.models.http;

import java.time.Duration;
import java.util.Objects;

/**
 * When and how long to wait before trying a failed model call again.
 *
 * <p>Retryable failures (429, 408, 5xx, 529 overloaded, connection errors and timeouts) are tried up
 * to {@code maxAttempts} times in all. The wait before attempt {@code n+1} is what the server asked
 * for when it said ({@code retry-after-ms}, {@code Retry-After}, or for a 429 the reset of the rate
 * limit that is used up); otherwise exponential backoff, {@code initialDelay * 2^(n-1)} capped at
 * {@code maxDelay}, less a random share of up to {@code jitter} of it, so that many clients that
 * failed together do not retry together. A server that asks for more than {@code maxServerDelay} is
 * not waited for: the call fails at once with a retryable error that says how long the server asked
 * to wait.
 *
 * @param maxAttempts    attempts in all, at least 1 (1 = never retry)
 * @param initialDelay   backoff before the second attempt
 * @param maxDelay       backoff never exceeds this
 * @param maxServerDelay the longest server-requested wait that is honoured
 * @param jitter         share of the backoff that is randomised, in [0, 1]
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay, Duration maxServerDelay, double jitter) {

    /** 4 attempts, 0.5 s doubling up to 8 s, 25 % jitter, server waits honoured up to 60 s. */
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(60), 0.25);

    /** One attempt, no retries. */
    public static final RetryPolicy NONE = DEFAULT.withMaxAttempts(1);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(maxServerDelay, "maxServerDelay");
        if (initialDelay.isNegative() || maxDelay.isNegative() || maxServerDelay.isNegative()) {
            throw new IllegalArgumentException("retry delays must not be negative");
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("jitter must be in [0, 1], was " + jitter);
        }
    }

    /** This policy with at most {@code attempts} attempts per call (1: no retry). */
    public RetryPolicy withMaxAttempts(int attempts) {
        return new RetryPolicy(attempts, initialDelay, maxDelay, maxServerDelay, jitter);
    }

    /**
     * The backoff after failed attempt {@code attempt} (1-based) when the server named no delay.
     *
     * @param random a number in [0, 1): 0 gives the full backoff, values near 1 take off up to {@code jitter} of it
     */
    public Duration backoff(int attempt, double random) {
        int doublings = Math.max(0, Math.min(attempt - 1, 30));
        long initial = initialDelay.toMillis();
        long max = maxDelay.toMillis();
        long base = initial > (max >> doublings) ? max : initial << doublings;
        return Duration.ofMillis(Math.round(base * (1 - jitter * random)));
    }
}
