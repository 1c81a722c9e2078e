package dev.threadline.store.redis;

import static dev.threadline.store.redis.RedisEncryptionTest.CANARY;
import static dev.threadline.store.redis.RedisEncryptionTest.KEY_1;
import static dev.threadline.store.redis.RedisEncryptionTest.keyring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.KeyUnavailableException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code keys} option of Redis store URLs (encryption at rest, ADR 0049): {@code keys=keyring:FILE} and
 * {@code keys=env} turn it on, on standalone and cluster URLs, beside the other options; any other value is refused
 * in one line, before connecting, naming the URL without its password.
 */
class RedisEncryptionUrlTest {
    @TempDir
    Path dir;

    @Test
    void aKeyringInTheUrlSealsWhatTheStoreWrites() throws Exception {
        Path ring = keyring(dir, "keyring.json", true, KEY_1);
        try (RedisProcess server = RedisProcess.start(List.of()); SealedBytes bytes = new SealedBytes(server)) {
            SessionInfo info = StoreFixtures.root("s", "acme", "u");
            try (StateStore store = StateStores.open(server.url() + "?keys=keyring:" + ring)) {
                store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
                assertThat(store.readOwn(SessionKey.of(info), 1, 2).toString()).contains(CANARY);
            }
            List<byte[]> events = bytes.redis().lrange(SealedBytes.key("tl:{acme/s}:ev"), 0, -1);
            assertThat(events).hasSize(2).allMatch(e -> e[0] == (byte) 0xF1);
            assertThat(bytes.redis().hgetall(SealedBytes.key("tl:dek:{acme}"))).as("acme's wrapped data key").hasSize(1);
        }
    }

    @Test
    void keysEnvTakesTheKeysFromTheEnvironment() {
        Assumptions.assumeTrue(System.getenv("THREADLINE_KEK") == null && System.getenv("THREADLINE_KEK_ACME") == null,
                "the test's environment holds no key-encryption key");
        try (RedisProcess server = RedisProcess.start(List.of()); StateStore store = StateStores.open(server.url() + "?keys=env");
             RawKeys raw = new RawKeys(server.url())) {
            SessionInfo info = StoreFixtures.root("s", "acme", "u");
            assertThatThrownBy(() -> store.create(info, List.of(StoreFixtures.first(info))))
                    .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("THREADLINE_KEK");
            assertThat(raw.under("tl")).isEmpty();
        }
    }

    @Test
    void theOptionIsSplitOffStandaloneAndClusterUrlsAndTheOtherOptionsStay() throws Exception {
        KeysOption.Parsed cluster = KeysOption.parse("redis-cluster://h1:7000,h2:7001?replicas=1&keys=env&replicaTimeout=1s");
        assertThat(cluster.url()).isEqualTo("redis-cluster://h1:7000,h2:7001?replicas=1&replicaTimeout=1s");
        assertThat(cluster.keys()).isNotNull();
        KeysOption.Parsed alone = KeysOption.parse("redis://h:6379/2?keys=keyring:" + keyring(dir, "k.json", true, KEY_1));
        assertThat(alone.url()).isEqualTo("redis://h:6379/2");
        assertThat(alone.keys()).isNotNull();
        KeysOption.Parsed none = KeysOption.parse("redis://h:6379?replicas=0");
        assertThat(none.url()).isEqualTo("redis://h:6379?replicas=0");
        assertThat(none.keys()).isNull();
        assertThat(new RedisStoreProvider().forms()).contains("keys=env").contains("keys=keyring:FILE");
    }

    @Test
    void aValueNamingNoProviderIsRefusedBeforeConnectingWithoutThePassword() {
        for (String url : List.of("redis://user:hunter2@127.0.0.1:1?keys=vault", "redis://user:hunter2@127.0.0.1:1?keys=",
                "redis://user:hunter2@127.0.0.1:1?keys=keyring:", "redis-cluster://user:hunter2@127.0.0.1:1,127.0.0.1:2?keys=kms")) {
            assertThatThrownBy(() -> StateStores.open(url)).as(url).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("names no key provider; use keys=env or keys=keyring:FILE")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2").doesNotContain("\n"));
        }
        assertThatThrownBy(() -> StateStores.open("redis://127.0.0.1:1?keys=env&keys=env")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("keys twice");
        Path missing = dir.resolve("missing.json");
        assertThatThrownBy(() -> StateStores.open("redis://127.0.0.1:1?keys=keyring:" + missing))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining(missing.toString());
    }
}
