package dev.threadline.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keys in the state store: secrets shown once and stored only as hashes, lookups, revocation, shared between opens. */
class KeyStoreTest {
    @TempDir
    Path dir;

    @Test
    void keepsOnlyTheHashAndFindsTheTenantUntilRevokedOnEveryOpenOfTheStore() throws Exception {
        String url = "sqlite:" + dir.resolve("t.db");
        NewKey k;
        try (KeyStore keys = KeyStore.open(url)) {
            assertThat(keys.hasActiveKey()).isFalse();
            k = keys.create("acme");
            assertThat(k.secret()).matches("tl_[0-9A-Za-z]{43}");
            assertThat(k.toString()).doesNotContain(k.secret());
            assertThat(keys.tenantOf(k.secret())).hasValue("acme");
            assertThat(keys.tenantOf(k.secret() + "x")).isEmpty();
            assertThat(keys.tenantOf("tl_" + "0".repeat(43))).isEmpty();
            assertThat(keys.tenantOf(null)).isEmpty();
            assertThatThrownBy(() -> keys.create("../x")).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> keys.create(KeyStore.TENANT)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("reserved");
        }
        for (Path f : Files.list(dir).toList()) { // nowhere on disk, WAL included
            assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).doesNotContain(k.secret().substring(3));
        }
        try (KeyStore again = KeyStore.open(url); KeyStore other = KeyStore.open(url)) {
            assertThat(again.list()).singleElement().satisfies(a -> {
                assertThat(a.tenant()).isEqualTo("acme");
                assertThat(a.hint()).isEqualTo(k.secret().substring(0, 7));
                assertThat(a.active()).isTrue();
            });
            assertThat(other.revoke(k.key().id())).isTrue();
            assertThat(other.revoke(k.key().id())).isFalse();
            assertThat(other.revoke("key_nope")).isFalse();
            assertThat(again.tenantOf(k.secret())).isEmpty(); // seen by every open of the store at once
            assertThat(again.list().getFirst().revokedAt()).isNotNull();
            assertThat(again.hasActiveKey()).isFalse();
        }
    }

    @Test
    void aCreateKeyStaysBoundToTheFirstSessionIdAcrossOpens() {
        String url = "sqlite:" + dir.resolve("c.db");
        try (KeyStore keys = KeyStore.open(url); KeyStore other = KeyStore.open(url)) {
            assertThat(keys.claimCreate("t", "k1", "a")).isTrue();
            assertThat(other.claimCreate("t", "k1", "a")).isTrue();
            assertThat(other.claimCreate("t", "k1", "b")).isFalse();
            assertThat(keys.claimCreate("u", "k1", "b")).isTrue(); // per tenant
        }
    }
}
