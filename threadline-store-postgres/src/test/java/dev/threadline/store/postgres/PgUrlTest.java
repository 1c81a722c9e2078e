package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Store URLs: both forms, user and password out of the URL and out of messages, the keys option, bad ones named. */
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
    void theKeysOptionTurnsEncryptionAtRestOnAndIsTakenOutOfTheJdbcUrl(@TempDir Path dir) throws Exception {
        Path ring = dir.resolve("keyring.json");
        Files.writeString(ring, "{\"tenants\": {\"*\": {\"active\": \"k-1\", \"keys\": {\"k-1\": \""
                + Base64.getEncoder().encodeToString(new byte[32]) + "\"}}}}");
        PgUrl env = PgUrl.parse("postgresql://ann:pw@h/d?keys=env");
        assertThat(env.keys()).isNotNull();
        assertThat(env.jdbcUrl()).isEqualTo("jdbc:postgresql://h/d");
        assertThat(env.shown()).doesNotContain("pw");

        PgUrl keyring = PgUrl.parse("postgresql://h/d?sslmode=require&keys=keyring:" + ring + "&targetServerType=primary");
        assertThat(keyring.keys()).isNotNull();
        assertThat(keyring.keys().activeKeyId("acme")).isEqualTo("k-1");
        assertThat(keyring.jdbcUrl()).isEqualTo("jdbc:postgresql://h/d?sslmode=require&targetServerType=primary");

        PgUrl jdbc = PgUrl.parse("jdbc:postgresql://h/d?keys=env&user=x");
        assertThat(jdbc.keys()).isNotNull();
        assertThat(jdbc.jdbcUrl()).isEqualTo("jdbc:postgresql://h/d?user=x");

        assertThat(PgUrl.parse("postgresql://h/d?keysize=1").keys()).isNull();
        assertThat(PgUrl.parse("postgresql://h/d?keysize=1").jdbcUrl()).isEqualTo("jdbc:postgresql://h/d?keysize=1");
        assertThat(PgUrl.parse("postgresql://h/d").keys()).isNull();
        assertThat(new PostgresStoreProvider().forms()).contains("keys=env").contains("keys=keyring:FILE");
    }

    @Test
    void aKeysOptionThatNamesNoKeyProviderIsRefusedNamingTheStoreUrlAndNeverThePassword(@TempDir Path dir) {
        for (String url : new String[] {"postgresql://ann:pw@h/d?keys=vault", "postgresql://ann:pw@h/d?keys=",
                "postgresql://ann:pw@h/d?keys", "postgresql://ann:pw@h/d?keys=keyring:", "jdbc:postgresql://h/d?keys=ENV&password=pw"}) {
            assertThatThrownBy(() -> PgUrl.parse(url)).as("%s", url).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("store url").hasMessageContaining("keys=env or keys=keyring:FILE")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain(":pw@").doesNotContain("=pw"));
        }
        assertThatThrownBy(() -> PgUrl.parse("postgresql://h/d?keys=env&keys=env")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("given twice");
        // a keyring file that is not there is refused when the URL is read, not at the first write
        String missing = "postgresql://h/d?keys=keyring:" + dir.resolve("absent.json");
        assertThatThrownBy(() -> PgUrl.parse(missing)).isInstanceOf(InvalidInputException.class).hasMessageContaining("absent.json");
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
