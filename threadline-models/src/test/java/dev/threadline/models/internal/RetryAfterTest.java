package dev.threadline.models.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.models.TestHttp;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
    static final Clock CLOCK = Clock.fixed(TestHttp.NOW, ZoneOffset.UTC);

    static HttpHeaders headers(Map<String, String> values) {
        return HttpHeaders.of(values.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue()))),
                (a, b) -> true);
    }

    static Optional<Duration> of(int status, Map<String, String> values) {
        return RetryAfter.of(status, headers(values), CLOCK);
    }

    @Test
    void secondsMillisecondsAndHttpDates() {
        assertThat(of(429, Map.of("retry-after", "30"))).hasValue(Duration.ofSeconds(30));
        assertThat(of(503, Map.of("retry-after", "0.5"))).hasValue(Duration.ofMillis(500));
        assertThat(of(429, Map.of("retry-after-ms", "250", "retry-after", "9"))).hasValue(Duration.ofMillis(250));
        assertThat(of(503, Map.of("retry-after", "Mon, 30 Nov 2026 12:01:00 GMT"))).hasValue(Duration.ofMinutes(1));
        assertThat(of(503, Map.of("retry-after", "Mon, 30 Nov 2026 11:00:00 GMT"))).hasValue(Duration.ZERO);
        assertThat(of(503, Map.of("retry-after", "soon"))).isEmpty();
        assertThat(of(503, Map.of())).isEmpty();
    }

    @Test
    void rateLimitResetHeadersCountOnlyForA429AndOnlyForTheExhaustedLimit() {
        Map<String, String> anthropic = Map.of("anthropic-ratelimit-requests-remaining", "10",
                "anthropic-ratelimit-requests-reset", "2026-11-30T12:00:30Z",
                "anthropic-ratelimit-tokens-remaining", "0", "anthropic-ratelimit-tokens-reset", "2026-11-30T12:00:04Z");
        assertThat(of(429, anthropic)).hasValue(Duration.ofSeconds(4));
        assertThat(of(529, anthropic)).isEmpty();
        assertThat(of(429, Map.of("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "6m0s"))).hasValue(Duration.ofMinutes(6));
    }

    @Test
    void goDurations() {
        assertThat(RetryAfter.goDuration("1s")).hasValue(Duration.ofSeconds(1));
        assertThat(RetryAfter.goDuration("20ms")).hasValue(Duration.ofMillis(20));
        assertThat(RetryAfter.goDuration("1h2m3.5s")).hasValue(Duration.ofMillis(3_723_500));
        assertThat(RetryAfter.goDuration("abc")).isEmpty();
        assertThat(RetryAfter.goDuration("1s trailing")).isEmpty();
    }
}
