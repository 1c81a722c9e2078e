package dev.threadline.models.internal;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a server asked the client to wait before trying again, read from its response headers,
 * first match wins:
 * <ol>
 *   <li>{@code retry-after-ms}: milliseconds (Anthropic, OpenAI);</li>
 *   <li>{@code Retry-After}: seconds, or an HTTP date (RFC 9110);</li>
 *   <li>for a 429 only, the reset time of the rate limit that is used up:
 *       Anthropic's {@code anthropic-ratelimit-<limit>-remaining: 0} with its
 *       {@code anthropic-ratelimit-<limit>-reset} (an RFC 3339 time), or OpenAI's
 *       {@code x-ratelimit-remaining-<limit>: 0} with {@code x-ratelimit-reset-<limit>} (a duration
 *       such as {@code 1s}, {@code 6m0s}, {@code 20ms}).</li>
 * </ol>
 * A time in the past counts as no wait; a header that cannot be read is ignored. Stateless: safe from any thread.
 */
public final class RetryAfter {
    private static final String[] ANTHROPIC_LIMITS = {"requests", "tokens", "input-tokens", "output-tokens"};
    private static final String[] OPENAI_LIMITS = {"requests", "tokens"};
    private static final Pattern GO_DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

    private RetryAfter() {}

    /** The wait the server asked for, if it named one. */
    public static Optional<Duration> of(int status, HttpHeaders headers, Clock clock) {
        Optional<String> ms = headers.firstValue("retry-after-ms");
        if (ms.isPresent()) {
            try {
                return Optional.of(nonNegative(Duration.ofNanos((long) (Double.parseDouble(ms.get().strip()) * 1_000_000))));
            } catch (NumberFormatException ignored) {
                // fall through to Retry-After
            }
        }
        Optional<Duration> retryAfter = headers.firstValue("retry-after").flatMap(v -> retryAfter(v, clock));
        if (retryAfter.isPresent() || status != 429) {
            return retryAfter;
        }
        for (String limit : ANTHROPIC_LIMITS) {
            if (headers.firstValue("anthropic-ratelimit-" + limit + "-remaining").filter("0"::equals).isPresent()) {
                Optional<Duration> reset = headers.firstValue("anthropic-ratelimit-" + limit + "-reset")
                        .flatMap(v -> rfc3339(v, clock));
                if (reset.isPresent()) {
                    return reset;
                }
            }
        }
        for (String limit : OPENAI_LIMITS) {
            if (headers.firstValue("x-ratelimit-remaining-" + limit).filter("0"::equals).isPresent()) {
                Optional<Duration> reset = headers.firstValue("x-ratelimit-reset-" + limit).flatMap(RetryAfter::goDuration);
                if (reset.isPresent()) {
                    return reset;
                }
            }
        }
        return Optional.empty();
    }

    /** {@code Retry-After}: delay-seconds (decimals tolerated) or an IMF-fixdate. */
    static Optional<Duration> retryAfter(String value, Clock clock) {
        String v = value.strip();
        try {
            return Optional.of(nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000))));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return Optional.of(nonNegative(Duration.between(clock.instant(), at)));
            } catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }

    private static Optional<Duration> rfc3339(String value, Clock clock) {
        try {
            return Optional.of(nonNegative(Duration.between(clock.instant(), OffsetDateTime.parse(value.strip()).toInstant())));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** A Go-style duration: {@code 1s}, {@code 6m0s}, {@code 20ms}, {@code 1h2m3.5s}. */
    static Optional<Duration> goDuration(String value) {
        String v = value.strip();
        Matcher m = GO_DURATION_PART.matcher(v);
        double millis = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                return Optional.empty();
            }
            double n = Double.parseDouble(m.group(1));
            millis += switch (m.group(2)) {
                case "h" -> n * 3_600_000;
                case "m" -> n * 60_000;
                case "s" -> n * 1000;
                default -> n;
            };
            end = m.end();
        }
        return end == 0 || end != v.length() ? Optional.empty() : Optional.of(Duration.ofMillis(Math.round(millis)));
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
