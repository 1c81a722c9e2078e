package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import org.junit.jupiter.api.Test;

/** Store URLs: both forms, user and password out of the URL and out of messages, bad ones named. */
class PgUrlTest {

    @Test
    void aPostgresqlUrlBecomesAJdbcUrlWithTheUserApart() {
        PgUrl u = PgUrl.parse("postgresql://ann:s%40cret@db.example:6543/threadline?sslmode=require");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/threadline?sslmode=require");
        assertThat(u.user()).isEqualTo("ann");
        assertThat(u.password()).isEqualTo("s@cret");
        assertThat(u.shown()).isEqualTo("postgresql://ann@db.example:6543/threadline").doesNotContain("cret");

        PgUrl plain = PgUrl.parse("postgres://localhost/tl");
        assertThat(plain.jdbcUrl()).isEqualTo("jdbc:postgresql://localhost/tl");
        assertThat(plain.user()).isNull();
        assertThat(PgUrl.parse("jdbc:postgresql://h:1/d?user=x&password=y").shown()).doesNotContain("=y");
    }

    @Test
    void aUrlMayListSeveralHostsForAFailoverPair() {
        PgUrl u = PgUrl.parse("postgresql://ann:pw@10.0.0.1:5432,10.0.0.2,[::1]:5433/tl?targetServerType=primary");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://10.0.0.1:5432,10.0.0.2,[::1]:5433/tl?targetServerType=primary");
        assertThat(u.user()).isEqualTo("ann");
        assertThat(u.password()).isEqualTo("pw");
        assertThat(u.shown()).isEqualTo("postgresql://ann@10.0.0.1:5432,10.0.0.2,[::1]:5433/tl");
    }

    @Test
    void theKeysOptionOfEncryptionAtRestIsRefusedClearlyOnPostgresql() {
        for (String url : new String[] {"postgresql://ann:pw@h/d?keys=env", "postgresql://h/d?sslmode=require&keys=keyring:/k.json",
                "jdbc:postgresql://h/d?keys=env"}) {
            assertThatThrownBy(() -> PgUrl.parse(url)).as("%s", url).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("encryption at rest is not yet available on PostgreSQL")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain(":pw@"));
        }
        assertThat(PgUrl.parse("postgresql://h/d?keysize=1").jdbcUrl()).isEqualTo("jdbc:postgresql://h/d?keysize=1");
    }

    @Test
    void badUrlsAreRefusedNamingTheStoreUrlAndNeverThePassword() {
        for (String bad : new String[] {null, "", "mysql://h/d", "postgresql://", "postgresql://h", "postgresql://h/a/b",
                "postgresql://ann:pw@/d", "postgresql://h:port/d",
                "postgresql://ann:pw@h:1,/d", "postgresql://h:1,h:0/d", "postgresql://[::1/d", "postgresql://ann:pw@h:70000/d"}) {
            assertThatThrownBy(() -> PgUrl.parse(bad)).as("%s", bad).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("store url").satisfies(e -> assertThat(e.getMessage()).doesNotContain(":pw@"));
        }
    }
}
