package dev.threadline.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key file: secrets shown once and stored only as hashes, lookups, revocation, shared between opens. */
class KeyStoreTest {
    @TempDir
    Path dir;

    @Test
    void keepsOnlyTheHashAndFindsTheTenantUntilRevoked() throws Exception {
        Path file = KeyStore.besideDb(dir.resolve("t.db"));
        assertThat(file.getFileName().toString()).isEqualTo("t.db.keys");
        NewKey k;
        try (KeyStore keys = KeyStore.open(file)) {
            assertThat(keys.hasActiveKey()).isFalse();
            k = keys.create("acme");
            assertThat(k.secret()).matches("tl_[0-9A-Za-z]{43}");
            assertThat(k.toString()).doesNotContain(k.secret());
            assertThat(keys.tenantOf(k.secret())).hasValue("acme");
            assertThat(keys.tenantOf(k.secret() + "x")).isEmpty();
            assertThat(keys.tenantOf("tl_" + "0".repeat(43))).isEmpty();
            assertThat(keys.tenantOf(null)).isEmpty();
            assertThatThrownBy(() -> keys.create("../x")).isInstanceOf(InvalidInputException.class);
        }
        for (Path f : Files.list(dir).toList()) { // nowhere on disk, WAL included
            assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).doesNotContain(k.secret().substring(3));
        }
        try (KeyStore again = KeyStore.open(file); KeyStore other = KeyStore.open(file)) {
            assertThat(again.list()).singleElement().satisfies(a -> {
                assertThat(a.tenant()).isEqualTo("acme");
                assertThat(a.hint()).isEqualTo(k.secret().substring(0, 7));
                assertThat(a.active()).isTrue();
            });
            assertThat(other.revoke(k.key().id())).isTrue();
            assertThat(other.revoke(k.key().id())).isFalse();
            assertThat(again.tenantOf(k.secret())).isEmpty(); // seen by every open of the file at once
            assertThat(again.list().getFirst().revokedAt()).isNotNull();
        }
    }

    @Test
    void aCreateKeyStaysBoundToTheFirstSessionId() {
        try (KeyStore keys = KeyStore.open(dir.resolve("k"))) {
            assertThat(keys.claimCreate("t", "k1", "a")).isEqualTo("a");
            assertThat(keys.claimCreate("t", "k1", "a")).isEqualTo("a");
            assertThat(keys.claimCreate("t", "k1", "b")).isEqualTo("a");
            assertThat(keys.claimCreate("u", "k1", "b")).isEqualTo("b"); // per tenant
        }
    }
}
