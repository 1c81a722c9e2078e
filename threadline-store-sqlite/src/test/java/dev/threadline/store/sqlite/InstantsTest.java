package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand parser of the time column reads exactly what {@link Instant#parse} reads. */
class InstantsTest {
    @Test
    void agreesWithInstantParseOnEveryPrecisionAndOnOddForms() {
        Random rnd = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(rnd.nextLong(-50_000_000_000L, 250_000_000_000L), rnd.nextInt(1_000_000_000));
            Instant truncated = switch (i % 4) {
                case 0 -> t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
                case 1 -> t.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
                case 2 -> t.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
                default -> t;
            };
            assertThat(Instants.parse(truncated.toString())).isEqualTo(truncated);
        }
        for (String odd : new String[] {"+10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-11-30T07:17:13.4Z"}) {
            assertThat(Instants.parse(odd)).isEqualTo(Instant.parse(odd));
        }
    }

    @Test
    void refusesWhatInstantParseRefuses() {
        for (String bad : new String[] {"2026-13-30T07:17:13Z", "2026-02-30T07:17:13Z", "2026-11-30 07:17:13Z", "2026-11-30T07:17:1xZ", "x"}) {
            assertThatThrownBy(() -> Instant.parse(bad)).as(bad).isInstanceOf(DateTimeException.class);
            assertThatThrownBy(() -> Instants.parse(bad)).as(bad).isInstanceOf(DateTimeException.class);
        }
    }
}
