package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.KeyUnavailableException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encryption at rest on PostgreSQL (ADR 0049, step 4), its keys: a missing or wrong key refuses before anything is
 * written; plain rows from before encryption was turned on still read beside sealed ones, and a store without keys
 * refuses a sealed row with one line; removing a tenant's key-encryption key shreds it while other tenants read;
 * a damaged sealed payload names the tenant and data key number; a data key is looked up without a second pooled
 * connection; two stores starting a tenant at once agree on its data key; the store URL's {@code keys} option. Each test on a fresh schema of the shared server.
 */
class PostgresEncryptionKeysTest {
    private static final String CANARY = "canary-pg-keys-40c7";
    private static final String KEY_1 = key('1');
    private static final String KEY_2 = key('2');

    @TempDir
    Path dir;

    private static String key(char c) {
        return Base64.getEncoder().encodeToString(String.valueOf(c).repeat(32).getBytes(StandardCharsets.US_ASCII));
    }

    /** A keyring file: {@code acme} under {@code acme-1} (when named), every other tenant under {@code all-1}. */
    private Path keyring(String name, boolean withAcme, String acmeKey) throws IOException {
        String acme = withAcme ? "\"acme\": {\"active\": \"acme-1\", \"keys\": {\"acme-1\": \"" + acmeKey + "\"}}," : "";
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"tenants\": {" + acme + " \"*\": {\"active\": \"all-1\", \"keys\": {\"all-1\": \"" + KEY_2 + "\"}}}}");
        return f;
    }

    private static PostgresStateStore open(String schema, KeyProvider keys) {
        return PostgresStateStore.open(PgStores.url(), PostgresStateStore.Options.defaults().withSchema(schema).withKeys(keys));
    }

    private static long count(String schema, String sql) {
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aTenantWithoutAKeyIsRefusedBeforeAnythingIsWritten() throws IOException {
        String schema = PgStores.freshSchema("nokey");
        Path ring = dir.resolve("only-acme.json"); // no "*" entry for the other tenants
        Files.writeString(ring, "{\"tenants\": {\"acme\": {\"active\": \"acme-1\", \"keys\": {\"acme-1\": \"" + KEY_1 + "\"}}}}");
        SessionInfo acme = StoreFixtures.root("a", "acme", "u");
        try (PostgresStateStore store = open(schema, KeyProviders.keyring(ring))) {
            store.create(acme, List.of(StoreFixtures.first(acme)));
            SessionInfo info = StoreFixtures.root("s", "globex", "u");
            assertThatThrownBy(() -> store.create(info, List.of(StoreFixtures.first(info))))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).tenant()).isEqualTo("globex"))
                    .hasMessageContaining("globex");
            Lease lease = ((LeaseResult.Acquired) store.acquire(SessionKey.of(acme), "me", Duration.ofSeconds(30), null)).lease();
            // acme's step writing a variable of globex's app scope: refused for globex before the step is written
            assertThatThrownBy(() -> store.append(new AppendRequest(SessionKey.of(acme), 1, lease.epoch(),
                    List.of(StoreFixtures.user("a", 2, CANARY)), List.of(new ScopedWrite(VariableScope.APP, "globex",
                    Map.of("motto", TextNode.valueOf(CANARY)), List.of())), null)))
                    .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("globex");
            assertThat(store.head(SessionKey.of(acme))).isEqualTo(1);
            assertThat(store.session(SessionKey.of(info))).isEmpty();
        }
        assertThat(count(schema, "SELECT count(*) FROM sessions")).as("only acme's session").isEqualTo(1);
        assertThat(count(schema, "SELECT count(*) FROM events")).as("only acme's first event").isEqualTo(1);
        assertThat(count(schema, "SELECT count(*) FROM variables")).isZero();
        assertThat(count(schema, "SELECT count(*) FROM data_keys WHERE tenant = 'globex'")).isZero();
    }

    @Test
    void aWrongKeyIsRefusedBeforeAnythingIsWrittenAndOnRead() throws IOException {
        String schema = PgStores.freshSchema("wrongkey");
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        try (PostgresStateStore store = open(schema, KeyProviders.keyring(keyring("right.json", true, KEY_1)))) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
        }
        try (PostgresStateStore store = open(schema, KeyProviders.keyring(keyring("wrong.json", true, KEY_2)))) {
            SessionInfo other = StoreFixtures.root("t", "acme", "u");
            assertThatThrownBy(() -> store.create(other, List.of(StoreFixtures.first(other))))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).keyId()).isEqualTo("acme-1"))
                    .hasMessageContaining("acme");
            Lease lease = ((LeaseResult.Acquired) store.acquire(SessionKey.of(info), "me", Duration.ofSeconds(30), null)).lease();
            assertThatThrownBy(() -> store.append(AppendRequest.of(SessionKey.of(info), 2, lease.epoch(),
                    List.of(StoreFixtures.user("s", 3, "more")))))
                    .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("acme-1");
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(info), 1, 2))
                    .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("acme-1");
        }
        assertThat(count(schema, "SELECT count(*) FROM events")).as("nothing written").isEqualTo(2);
        assertThat(count(schema, "SELECT count(*) FROM sessions")).isEqualTo(1);
        assertThat(count(schema, "SELECT count(*) FROM data_keys")).isEqualTo(1);
    }

    @Test
    void plainRowsFromBeforeEncryptionStillReadNewRowsAreSealedAndAStoreWithoutKeysRefusesThemInOneLine() throws IOException {
        String schema = PgStores.freshSchema("before");
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        SessionKey k = SessionKey.of(info);
        try (PostgresStateStore store = open(schema, null)) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, "plain words")));
        }
        try (PostgresStateStore store = open(schema, KeyProviders.keyring(keyring("keyring.json", true, KEY_1)))) {
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(AppendRequest.of(k, 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, "sealed words"))));
            assertThat(store.readOwn(k, 1, 3)).hasSize(3);
            assertThat(store.readOwn(k, 2, 3).toString()).contains("plain words", "sealed words");
            assertThat(store.readOwnTranscriptEvents(k, 1, 3).toString()).contains("plain words", "sealed words");
        }
        assertThat(count(schema, "SELECT count(*) FROM events WHERE payload IS NOT NULL AND payload_sealed IS NULL")).isEqualTo(2);
        assertThat(count(schema, "SELECT count(*) FROM events WHERE payload IS NULL AND payload_sealed IS NOT NULL")).isEqualTo(1);
        try (PostgresStateStore store = open(schema, null)) {
            assertThat(store.readOwn(k, 1, 2)).hasSize(2);
            assertThatThrownBy(() -> store.readOwn(k, 3, 3)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("is sealed").hasMessageContaining("tenant 'acme'").hasMessageContaining("keys=")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThatThrownBy(() -> store.readOwnTranscriptEvents(k, 1, 3)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("is sealed");
        }
    }

    @Test
    void removingATenantsKeyShredsItsDataWhileOtherTenantsStillRead() throws IOException {
        String schema = PgStores.freshSchema("shred");
        SessionInfo acme = StoreFixtures.root("s", "acme", "u");
        SessionInfo globex = StoreFixtures.root("s", "globex", "u");
        try (PostgresStateStore store = open(schema, KeyProviders.keyring(keyring("keyring.json", true, KEY_1)))) {
            store.create(acme, List.of(StoreFixtures.first(acme), StoreFixtures.user("s", 2, CANARY)));
            store.create(globex, List.of(StoreFixtures.first(globex), StoreFixtures.user("s", 2, "kept")));
        }
        // acme's entry removed from the keyring: acme now falls to "*", whose key never wrapped acme's data key
        try (PostgresStateStore store = open(schema, KeyProviders.keyring(keyring("shredded.json", false, KEY_1)))) {
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(acme), 1, 2))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).tenant()).isEqualTo("acme"))
                    .hasMessageContaining("acme-1");
            assertThat(store.readOwn(SessionKey.of(globex), 1, 2).toString()).contains("kept");
        }
    }

    @Test
    void aDamagedSealedPayloadIsAStorageErrorNamingTheTenantAndDataKeyNumber() throws Exception {
        String schema = PgStores.freshSchema("damage");
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        KeyProvider keys = KeyProviders.keyring(keyring("keyring.json", true, KEY_1));
        try (PostgresStateStore store = open(schema, keys)) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            // flip the last bit of seq 2's tag
            assertThat(s.executeUpdate("UPDATE events SET payload_sealed = set_byte(payload_sealed, length(payload_sealed) - 1,"
                    + " get_byte(payload_sealed, length(payload_sealed) - 1) # 1) WHERE seq = 2")).isEqualTo(1);
        }
        try (PostgresStateStore store = open(schema, keys)) {
            assertThat(store.readOwn(SessionKey.of(info), 1, 1)).hasSize(1);
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(info), 2, 2)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("tenant 'acme'").hasMessageContaining("data key 1");
        }
    }

    @Test
    void aReadThatMeetsADataKeyNotYetUnwrappedTakesNoSecondPooledConnection() throws IOException {
        String schema = PgStores.freshSchema("onepool");
        KeyProvider keys = KeyProviders.keyring(keyring("keyring.json", true, KEY_1));
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        try (PostgresStateStore store = open(schema, keys)) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
        }
        // a new process's store with one connection: the read holds it while the data key is looked up
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(), PostgresStateStore.Options.defaults()
                .withSchema(schema).withKeys(keys).withPoolSize(1).withPoolWait(Duration.ofMillis(250)))) {
            assertThat(store.readOwn(SessionKey.of(info), 1, 2).toString()).contains(CANARY);
            Lease lease = ((LeaseResult.Acquired) store.acquire(SessionKey.of(info), "me", Duration.ofSeconds(30), null)).lease();
            store.append(AppendRequest.of(SessionKey.of(info), 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, "more"))));
            assertThat(store.readOwn(SessionKey.of(info), 3, 3).toString()).contains("more");
        }
    }

    @Test
    void twoStoresStartingATenantAtOnceAgreeOnItsDataKey() throws Exception {
        String schema = PgStores.freshSchema("race");
        KeyProvider keys = KeyProviders.keyring(keyring("keyring.json", true, KEY_1));
        try (PostgresStateStore a = open(schema, keys); PostgresStateStore b = open(schema, keys)) {
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                PostgresStateStore store = i % 2 == 0 ? a : b;
                SessionInfo info = StoreFixtures.root("s" + i, "acme", "u");
                writes.add(CompletableFuture.runAsync(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user(info.id(), 2, CANARY)));
                }));
            }
            start.countDown();
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
            for (int i = 0; i < 8; i++) {
                assertThat(a.readOwn(new SessionKey("acme", "s" + i), 2, 2).toString()).contains(CANARY);
                assertThat(b.readOwn(new SessionKey("acme", "s" + i), 2, 2).toString()).contains(CANARY);
            }
            assertThat(a.dataKeys("acme")).hasSize(1);
        }
    }

    @Test
    void theStoreUrlTurnsEncryptionOnWithAKeyringOrTheEnvironment() throws IOException {
        String schema = PgStores.freshSchema("url");
        Path ring = keyring("keyring.json", true, KEY_1);
        String url = PgStores.url();
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        try (PostgresStateStore store = PostgresStateStore.open(url + "?keys=keyring:" + ring,
                PostgresStateStore.Options.defaults().withSchema(schema))) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
            assertThat(store.readOwn(SessionKey.of(info), 1, 2).toString()).contains(CANARY);
            assertThat(store.url()).doesNotContain("keys");
        }
        assertThat(count(schema, "SELECT count(*) FROM events WHERE payload_sealed IS NOT NULL")).isEqualTo(2);
        assertThatThrownBy(() -> PostgresStateStore.open(url + "?keys=env",
                PostgresStateStore.Options.defaults().withSchema(schema).withKeys(KeyProviders.keyring(ring))))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("give them once");
        assertThatThrownBy(() -> StateStores.open(url + "?keys=vault")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("keys=env or keys=keyring:FILE");
        try (StateStore plain = StateStores.open(url)) {
            assertThat(plain.session(SessionKey.of(info))).isEmpty(); // another schema (the default): a plain store opens
        }
    }
}
