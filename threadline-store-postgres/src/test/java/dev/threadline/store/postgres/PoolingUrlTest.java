package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The store URL's {@code direct=host:port} parameter (ADR 0048): what it makes of the URL, and its bad values refused. */
class PoolingUrlTest {
    @Test
    void directIsTakenOutOfThePoolsUrlAndNamesTheServerWithTheSameDatabaseAndParameters() {
        Pooling p = Pooling.of(PgUrl.parse("postgresql://app:pw@bouncer:6432/appdb?sslmode=disable&direct=db1.internal:5432&connectTimeout=3"),
                "tenant_a", true);
        assertThat(p.pooled()).isTrue();
        assertThat(p.poolUrl()).isEqualTo("jdbc:postgresql://bouncer:6432/appdb?sslmode=disable&connectTimeout=3");
        assertThat(p.directUrl()).isEqualTo("jdbc:postgresql://db1.internal:5432/appdb?sslmode=disable&connectTimeout=3");
        assertThat(p.prelude()).isEqualTo("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE; SET LOCAL search_path TO 'tenant_a'");
        assertThat(p.poolProperties(new java.util.Properties()).getProperty("prepareThreshold")).isEqualTo("0");
    }

    @Test
    void anIpv6DirectAddressAndTheJdbcFormWork() {
        Pooling p = Pooling.of(PgUrl.parse("jdbc:postgresql://127.0.0.1:6432/db?direct=%5B::1%5D:5432"), null, false);
        assertThat(p.poolUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:6432/db");
        assertThat(p.directUrl()).isEqualTo("jdbc:postgresql://[::1]:5432/db");
        assertThat(p.prelude()).isNull();
    }

    @Test
    void withoutDirectNothingChanges() {
        Pooling p = Pooling.of(PgUrl.parse("postgresql://h:5432/db?sslmode=disable"), "s", true);
        assertThat(p.pooled()).isFalse();
        assertThat(p.poolUrl()).isEqualTo("jdbc:postgresql://h:5432/db?sslmode=disable");
        assertThat(p.prelude()).isNull();
        assertThat(p.poolProperties(new java.util.Properties()).getProperty("prepareThreshold")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"?direct=", "?direct", "?direct=db1", "?direct=db1:", "?direct=db1:0", "?direct=db1:70000",
            "?direct=db1:5432&direct=db2:5432", "?direct=db1:54x", "?direct=user@db1:5432", "?direct=db1:5432,db2:5432",
            "?direct=%2Fdb1:5432"})
    void badDirectValuesAreRefusedAtOpenNamingTheParameter(String query) {
        assertThatThrownBy(() -> PostgresStateStore.open("postgresql://u@127.0.0.1:1/db" + query))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    assertThat(e.field()).isEqualTo("store url parameter direct");
                    assertThat(e.getMessage()).doesNotContain("\n");
                });
    }
}
