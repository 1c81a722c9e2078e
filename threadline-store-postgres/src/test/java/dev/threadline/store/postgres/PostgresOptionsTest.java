package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Bad options and URLs are refused before any connection, naming what was wrong. */
class PostgresOptionsTest {

    @Test
    void optionsOutOfRangeAreRefusedNamingTheOption() {
        PostgresStateStore.Options d = PostgresStateStore.Options.defaults();
        assertThat(d.poolSize()).isEqualTo(10);
        assertThat(d.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(d.poolWait()).isEqualTo(Duration.ofSeconds(30));
        assertThat(d.withPoolWait(Duration.ofSeconds(2)).poolWait()).isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> d.withPoolWait(Duration.ofMillis(100)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("poolWait");
        assertThatThrownBy(() -> d.withPoolSize(-1)).isInstanceOf(InvalidInputException.class).hasMessageContaining("poolSize");
        assertThatThrownBy(() -> d.withConnectTimeout(Duration.ofMillis(10)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> d.withQueryTimeout(Duration.ZERO))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("queryTimeout");
        for (String bad : new String[] {"", "Upper", "has-dash", "x; DROP TABLE sessions", "1starts_with_digit"}) {
            assertThatThrownBy(() -> d.withSchema(bad)).as(bad).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("schema");
        }
    }

    @Test
    void openRefusesABadUrlWithoutConnecting() {
        assertThatThrownBy(() -> PostgresStateStore.open("sqlite:/tmp/x.db", null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("store url");
        assertThat(PostgresStateStore.handles("postgresql://h/d")).isTrue();
        assertThat(PostgresStateStore.handles("jdbc:postgresql://h/d")).isTrue();
        assertThat(PostgresStateStore.handles("redis://h")).isFalse();
        assertThat(PostgresStateStore.handles(null)).isFalse();
    }
}
