package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.KeyUnavailableException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import dev.threadline.store.tck.RoundTripFixtures;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encryption at rest on SQLite (ADR 0049): a canary written everywhere a payload goes is in no file of an
 * encrypted store (and is in a plain one's, so the scan can fail); a missing or wrong key refuses before
 * anything is written; plain rows from before encryption was turned on still read, new ones are sealed;
 * removing a tenant's key-encryption key makes its data unreadable (crypto-shredding).
 */
class SqliteEncryptionTest {
    static final String CANARY = "canary-sealed-7c3e91";
    private static final String KEY_1 = key('1');
    private static final String KEY_2 = key('2');

    @TempDir
    Path dir;

    private static String key(char c) {
        return Base64.getEncoder().encodeToString(String.valueOf(c).repeat(32).getBytes(StandardCharsets.US_ASCII));
    }

    /** A keyring file: {@code acme} under {@code acme-1}, every other tenant under {@code all-1}. */
    private Path keyring(String name, boolean withAcme, String acmeKey) throws IOException {
        String acme = withAcme ? "\"acme\": {\"active\": \"acme-1\", \"keys\": {\"acme-1\": \"" + acmeKey + "\"}}," : "";
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"tenants\": {" + acme + " \"*\": {\"active\": \"all-1\", \"keys\": {\"all-1\": \"" + KEY_2 + "\"}}}}");
        return f;
    }

    private static SqliteStateStore.Options with(KeyProvider keys) {
        return SqliteStateStore.Options.defaults().withKeys(keys);
    }

    @Test
    void theCanaryIsInNoFileOfAnEncryptedStoreWhileAPlainStoreOfTheSameWritesHoldsIt() throws Exception {
        Path plain = dir.resolve("plain");
        Path sealed = dir.resolve("sealed");
        fillEverything(plain, null);
        fillEverything(sealed, KeyProviders.keyring(keyring("keyring.json", true, KEY_1)));

        assertThat(occurrences(plain, CANARY)).as("the plain store holds the canary, so the scan can find it").isPositive();
        assertThat(occurrences(sealed, CANARY)).as("the encrypted store's files hold no byte of it").isZero();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sealed.resolve("store.db"));
             Statement s = c.createStatement()) {
            for (String table : List.of("events", "segments", "snapshots", "variables", "commands", "history_bases", "interrupts")) {
                String column = switch (table) {
                    case "segments" -> "payloads";
                    case "variables" -> "value";
                    case "commands" -> "result";
                    case "interrupts" -> "reason";
                    default -> "payload";
                };
                try (ResultSet rs = s.executeQuery("SELECT count(*), count(CASE WHEN typeof(" + column + ") = 'blob' AND hex(substr("
                        + column + ", 1, 1)) = 'F1' THEN 1 END) FROM " + table + " WHERE " + column + " IS NOT NULL")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("rows of " + table).isPositive();
                    assertThat(rs.getInt(2)).as("sealed rows of " + table).isEqualTo(rs.getInt(1));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM journal_text")) {
                rs.next();
                assertThat(rs.getInt(1)).as("no plaintext in the text index").isZero();
            }
        }
    }

    /**
     * Writes the canary into messages (sealed into segments by snapshots), session, user and app variables, a
     * pruned history's base, a command result and an interrupt reason; reads it all back; scrubs the WAL and closes.
     */
    static void fillEverything(Path where, KeyProvider keys) {
        SqliteStateStore store = SqliteStateStore.open(where.resolve("store.db"), with(keys));
        try (Threadline tl = Threadline.builder().store(store).model(ScriptedModel.demo()).snapshotEvery(4).build()) {
            Tenant acme = tl.tenant("acme");
            for (int i = 0; i < 3; i++) {
                Session s = acme.create(new NewSession("ada-" + i, "ada", SessionConfig.DEFAULT, Map.of(), null));
                for (int t = 0; t < 12; t++) {
                    s.submit("turn " + t + " says " + CANARY);
                }
                s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(CANARY)),
                        new Edit.SetVariable(VariableScope.APP, "motto", TextNode.valueOf(CANARY)),
                        new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(CANARY))));
            }
            assertThat(tl.lifecycle().prune("acme", "ada-0", PrunePolicy.keepLatest(2)).pruned()).isTrue();
            assertThat(acme.open("ada-1").state().messages().toString()).contains(CANARY);
            assertThat(acme.open("ada-0").state().messages().toString()).contains(CANARY);

            SessionKey k = new SessionKey("acme", "cmd");
            SessionInfo info = StoreFixtures.root("cmd", "acme", "ada");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("cmd", 2, "asks " + CANARY)));
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.assistant("cmd", 3, "ok")), List.of(),
                    new CommandRecord(k, "c-1", "fp", 3, "{\"answer\": \"" + CANARY + "\"}")));
            assertThat(store.requestInterrupt(k, lease.epoch(), "stop: " + CANARY)).isTrue();
            store.saveSnapshot(k, RoundTripFixtures.snapshot(3));
            assertThat(store.command(k, "c-1").orElseThrow().result()).contains(CANARY);
            assertThat(store.latestSnapshot(k, 3)).isPresent();
            assertThat(store.search(List.of(new SearchRange(k, 1, 3)), CANARY, 5)).isNotEmpty();
            assertThat(store.scrub()).contains("truncated").doesNotContain("NOT");
        }
    }

    @Test
    void aTenantWithoutAKeyIsRefusedBeforeAnythingIsWritten() throws IOException {
        Path db = dir.resolve("store.db");
        // a keyring that names only acme: no "*" entry for other tenants
        Path ring = dir.resolve("only-acme.json");
        Files.writeString(ring, "{\"tenants\": {\"acme\": {\"active\": \"acme-1\", \"keys\": {\"acme-1\": \"" + KEY_1 + "\"}}}}");
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(ring)))) {
            SessionInfo info = StoreFixtures.root("s", "globex", "u");
            assertThatThrownBy(() -> store.create(info, List.of(StoreFixtures.first(info))))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).tenant()).isEqualTo("globex"))
                    .hasMessageContaining("globex");
            assertThat(store.session(SessionKey.of(info))).isEmpty();
            assertThat(store.dataKeys("globex")).isEmpty();
        }
        assertThat(count(db, "SELECT count(*) FROM sessions") + count(db, "SELECT count(*) FROM events")
                + count(db, "SELECT count(*) FROM data_keys")).as("nothing written").isZero();
    }

    @Test
    void aWrongKeyIsRefusedBeforeAnythingIsWrittenAndOnRead() throws IOException {
        Path db = dir.resolve("store.db");
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(keyring("right.json", true, KEY_1))))) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
        }
        long events = count(db, "SELECT count(*) FROM events");
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(keyring("wrong.json", true, KEY_2))))) {
            SessionInfo other = StoreFixtures.root("t", "acme", "u");
            assertThatThrownBy(() -> store.create(other, List.of(StoreFixtures.first(other))))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).keyId()).isEqualTo("acme-1"))
                    .hasMessageContaining("acme");
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(info), 1, 2))
                    .isInstanceOf(KeyUnavailableException.class).hasMessageContaining("acme-1");
        }
        assertThat(count(db, "SELECT count(*) FROM events")).as("nothing written").isEqualTo(events);
        assertThat(count(db, "SELECT count(*) FROM sessions")).isEqualTo(1);
    }

    @Test
    void plainRowsFromBeforeEncryptionStillReadAndNewRowsAreSealed() throws IOException {
        Path db = dir.resolve("store.db");
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        SessionKey k = SessionKey.of(info);
        try (SqliteStateStore store = SqliteStateStore.open(db)) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, "plain words")));
        }
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(keyring("keyring.json", true, KEY_1))))) {
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(AppendRequest.of(k, 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, "sealed words"))));
            assertThat(store.readOwn(k, 1, 3)).hasSize(3);
            assertThat(store.readOwn(k, 2, 3).toString()).contains("plain words", "sealed words");
        }
        assertThat(count(db, "SELECT count(*) FROM events WHERE typeof(payload) = 'text'")).isEqualTo(2);
        assertThat(count(db, "SELECT count(*) FROM events WHERE typeof(payload) = 'blob'")).isEqualTo(1);
        try (SqliteStateStore store = SqliteStateStore.open(db)) {
            assertThat(store.readOwn(k, 1, 2)).hasSize(2);
            assertThatThrownBy(() -> store.readOwn(k, 3, 3)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("is sealed").hasMessageContaining("keys=");
        }
    }

    @Test
    void removingATenantsKeyShredsItsDataWhileOtherTenantsStillRead() throws IOException {
        Path db = dir.resolve("store.db");
        SessionInfo acme = StoreFixtures.root("s", "acme", "u");
        SessionInfo globex = StoreFixtures.root("s", "globex", "u");
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(keyring("keyring.json", true, KEY_1))))) {
            store.create(acme, List.of(StoreFixtures.first(acme), StoreFixtures.user("s", 2, CANARY)));
            store.create(globex, List.of(StoreFixtures.first(globex), StoreFixtures.user("s", 2, "kept")));
        }
        // acme's entry removed from the keyring: acme now falls to "*", whose key never wrapped acme's data key
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(keyring("shredded.json", false, KEY_1))))) {
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(acme), 1, 2))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).tenant()).isEqualTo("acme"))
                    .hasMessageContaining("acme-1");
            assertThat(store.readOwn(SessionKey.of(globex), 1, 2).toString()).contains("kept");
        }
        Path none = dir.resolve("none.json");
        Files.writeString(none, "{\"tenants\": {\"globex\": {\"active\": \"g-1\", \"keys\": {\"g-1\": \"" + KEY_1 + "\"}}}}");
        try (SqliteStateStore store = SqliteStateStore.open(db, with(KeyProviders.keyring(none)))) {
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(acme), 1, 2)).isInstanceOf(KeyUnavailableException.class)
                    .hasMessageContaining("acme");
        }
    }

    @Test
    void aDamagedSealedPayloadIsAStorageErrorNamingTheTenantAndKeyNumber() throws Exception {
        Path db = dir.resolve("store.db");
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        KeyProvider keys = KeyProviders.keyring(keyring("keyring.json", true, KEY_1));
        try (SqliteStateStore store = SqliteStateStore.open(db, with(keys))) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            // flip the last byte (the tag) of seq 2's sealed payload
            s.executeUpdate("UPDATE events SET payload = substr(payload, 1, length(payload) - 1)"
                    + " || CAST(x'00' AS BLOB) WHERE seq = 2");
        }
        try (SqliteStateStore store = SqliteStateStore.open(db, with(keys))) {
            assertThat(store.readOwn(SessionKey.of(info), 1, 1)).hasSize(1);
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(info), 2, 2)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("tenant 'acme'").hasMessageContaining("data key 1");
        }
    }

    @Test
    void twoStoresOnOneFileStartingATenantAtOnceAgreeOnItsDataKey() throws Exception {
        Path db = dir.resolve("store.db");
        KeyProvider keys = KeyProviders.keyring(keyring("keyring.json", true, KEY_1));
        try (SqliteStateStore a = SqliteStateStore.open(db, with(keys)); SqliteStateStore b = SqliteStateStore.open(db, with(keys))) {
            var start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                SqliteStateStore store = i % 2 == 0 ? a : b;
                SessionInfo info = StoreFixtures.root("s" + i, "acme", "u");
                writes.add(java.util.concurrent.CompletableFuture.runAsync(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user(info.id(), 2, CANARY)));
                }));
            }
            start.countDown();
            java.util.concurrent.CompletableFuture.allOf(writes.toArray(java.util.concurrent.CompletableFuture[]::new)).join();
            for (int i = 0; i < 8; i++) {
                assertThat(a.readOwn(new SessionKey("acme", "s" + i), 2, 2).toString()).contains(CANARY);
                assertThat(b.readOwn(new SessionKey("acme", "s" + i), 2, 2).toString()).contains(CANARY);
            }
            assertThat(a.dataKeys("acme")).hasSize(1);
        }
    }

    @Test
    void theStoreUrlTurnsEncryptionOnWithAKeyringOrTheEnvironmentAndRefusesWhatItDoesNotKnow() throws IOException {
        Path ring = keyring("keyring.json", true, KEY_1);
        Path db = dir.resolve("url.db");
        try (StateStore store = StateStores.open("sqlite:" + db + "?keys=keyring:" + ring)) {
            SessionInfo info = StoreFixtures.root("s", "acme", "u");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
            assertThat(store.readOwn(SessionKey.of(info), 1, 2).toString()).contains(CANARY);
        }
        assertThat(count(db, "SELECT count(*) FROM events WHERE typeof(payload) = 'blob'")).isEqualTo(2);
        assertThat(new SqliteStoreProvider().forms()).contains("keys=env").contains("keys=keyring:FILE");
        assertThat(SqliteStoreProvider.keys("u", "keys=env")).isNotNull();
        assertThat(SqliteStoreProvider.keys("u", "")).isNull();
        assertThatThrownBy(() -> StateStores.open("sqlite:" + db + "?key=env")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("unknown option 'key'");
        assertThatThrownBy(() -> StateStores.open("sqlite:" + db + "?keys=vault")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("keys=env or keys=keyring:FILE");
        assertThatThrownBy(() -> StateStores.open("sqlite:?keys=env")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("names no file");
    }

    private static long count(Path db, String sql) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** How many times {@code canary}'s bytes appear in the files under {@code where} (the database, its WAL). */
    private static int occurrences(Path where, String canary) throws IOException {
        return CanaryScan.occurrences(where, canary);
    }
}
