package dev.threadline.models.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    @Test
    void backoffDoublesUpToTheCapAndJitterOnlyShortensIt() {
        RetryPolicy p = RetryPolicy.DEFAULT;
        assertThat(p.backoff(1, 0)).isEqualTo(Duration.ofMillis(500));
        assertThat(p.backoff(2, 0)).isEqualTo(Duration.ofMillis(1000));
        assertThat(p.backoff(3, 0)).isEqualTo(Duration.ofMillis(2000));
        assertThat(p.backoff(10, 0)).isEqualTo(Duration.ofSeconds(8));
        assertThat(p.backoff(100, 0)).isEqualTo(Duration.ofSeconds(8));
        assertThat(p.backoff(2, 0.999)).isBetween(Duration.ofMillis(750), Duration.ofMillis(1000));
        assertThat(p.backoff(2, 0.5)).isEqualTo(Duration.ofMillis(875));
    }

    @Test
    void nonsenseIsRefused() {
        assertThatThrownBy(() -> RetryPolicy.DEFAULT.withMaxAttempts(0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), 2))
                .hasMessageContaining("jitter");
    }
}
