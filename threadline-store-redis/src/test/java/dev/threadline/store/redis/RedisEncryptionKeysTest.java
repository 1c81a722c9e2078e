package dev.threadline.store.redis;

import static dev.threadline.store.redis.RedisEncryptionTest.CANARY;
import static dev.threadline.store.redis.RedisEncryptionTest.KEY_1;
import static dev.threadline.store.redis.RedisEncryptionTest.KEY_2;
import static dev.threadline.store.redis.RedisEncryptionTest.keyring;
import static dev.threadline.store.redis.RedisEncryptionTest.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.error.KeyUnavailableException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encryption at rest on Redis (ADR 0049), the keys: a missing or wrong key refuses before anything is written;
 * plain values written before keys still read beside sealed ones, and a store without keys refuses a sealed one in
 * one line; removing a tenant's key-encryption key makes its data unreadable while other tenants read (shredding);
 * damaged bytes name the tenant and the data key; two stores starting a tenant at once agree on its data key.
 */
class RedisEncryptionKeysTest {
    @TempDir
    Path dir;
    private RedisProcess server;

    @BeforeEach
    void start() {
        server = RedisProcess.start(List.of());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private KeyProvider ring(String name, boolean withAcme, String acmeKey) throws IOException {
        return KeyProviders.keyring(keyring(dir, name, withAcme, acmeKey));
    }

    @Test
    void aTenantWithoutAKeyIsRefusedBeforeAnythingIsWritten() throws IOException {
        Path only = dir.resolve("only-acme.json");
        Files.writeString(only, "{\"tenants\": {\"acme\": {\"active\": \"acme-1\", \"keys\": {\"acme-1\": \"" + KEY_1 + "\"}}}}");
        try (RedisStateStore store = open(server, KeyProviders.keyring(only)); RawKeys raw = new RawKeys(server.url())) {
            SessionInfo info = StoreFixtures.root("s", "globex", "u");
            assertThatThrownBy(() -> store.create(info, List.of(StoreFixtures.first(info))))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).tenant()).isEqualTo("globex"))
                    .hasMessageContaining("globex");
            assertThat(raw.under("tl")).as("nothing written, not even a data key").isEmpty();
            assertThat(store.session(SessionKey.of(info))).isEmpty();
        }
    }

    @Test
    void aWrongKeyIsRefusedBeforeAnythingIsWrittenAndOnRead() throws IOException {
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        SessionKey k = SessionKey.of(info);
        Lease lease;
        try (RedisStateStore store = open(server, ring("right.json", true, KEY_1))) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
            lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
        }
        try (RedisStateStore store = open(server, ring("wrong.json", true, KEY_2)); RawKeys raw = new RawKeys(server.url())) {
            var before = raw.under("tl");
            SessionInfo other = StoreFixtures.root("t", "acme", "u");
            assertThatThrownBy(() -> store.create(other, List.of(StoreFixtures.first(other))))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).keyId()).isEqualTo("acme-1"))
                    .hasMessageContaining("acme");
            assertThatThrownBy(() -> store.append(AppendRequest.of(k, 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, "more")))))
                    .isInstanceOf(KeyUnavailableException.class);
            assertThatThrownBy(() -> store.requestInterrupt(k, lease.epoch(), "stop")).isInstanceOf(KeyUnavailableException.class);
            assertThatThrownBy(() -> store.readOwn(k, 1, 2)).isInstanceOf(KeyUnavailableException.class).hasMessageContaining("acme-1");
            assertThat(raw.under("tl")).as("nothing written").isEqualTo(before);
        }
    }

    @Test
    void plainValuesFromBeforeKeysStillReadAndAStoreWithoutKeysRefusesASealedOneInOneLine() {
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        SessionKey k = SessionKey.of(info);
        try (RedisStateStore store = open(server, null)) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, "plain words")));
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.user("s", 3, "plain too")),
                    List.of(StoreFixtures.setAppVar("acme", "old", "\"plain value\"")), new CommandRecord(k, "c-1", "fp", 3, "plain result")));
        }
        try (RedisStateStore store = open(server, KeyProviders.environment(java.util.Map.of("THREADLINE_KEK", KEY_1)));
             SealedBytes bytes = new SealedBytes(server)) {
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(new AppendRequest(k, 3, lease.epoch(), List.of(StoreFixtures.user("s", 4, "sealed words")),
                    List.of(StoreFixtures.setAppVar("acme", "new", "\"sealed value\"")), new CommandRecord(k, "c-2", "fp", 4, "sealed result")));
            assertThat(store.readOwn(k, 1, 4).toString()).contains("plain words", "plain too", "sealed words");
            assertThat(store.variables(VariableScope.APP, "acme").toString()).contains("plain value", "sealed value");
            assertThat(store.command(k, "c-1").orElseThrow().result()).isEqualTo("plain result");
            assertThat(store.command(k, "c-2").orElseThrow().result()).isEqualTo("sealed result");
            assertThat(store.command(k, "c-2").orElseThrow().fingerprint()).isEqualTo("fp");
            List<byte[]> events = bytes.redis().lrange(SealedBytes.key("tl:{acme/s}:ev"), 0, -1);
            assertThat(events.stream().filter(e -> e[0] == (byte) 0xF1).count()).as("only the newest event sealed").isEqualTo(1);
            assertThat(events).hasSize(4);
        }
        try (RedisStateStore store = open(server, null)) {
            assertThat(store.readOwn(k, 1, 3)).hasSize(3);
            assertThat(store.command(k, "c-1").orElseThrow().result()).isEqualTo("plain result");
            for (Runnable sealed : List.<Runnable>of(() -> store.readOwn(k, 4, 4), () -> store.command(k, "c-2"),
                    () -> store.variables(VariableScope.APP, "acme"))) {
                assertThatThrownBy(sealed::run).isInstanceOf(StorageException.class)
                        .hasMessageContaining("is sealed (encryption at rest); open the store with its keys")
                        .hasMessageContaining("tenant 'acme'").hasMessageContaining("keys=")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            }
            assertThat(store.readOwnTranscript(k, 1, 3)).as("the two messages, read without opening anything").hasSize(2);
        }
    }

    @Test
    void removingATenantsKeyShredsItsDataWhileOtherTenantsStillRead() throws IOException {
        SessionInfo acme = StoreFixtures.root("s", "acme", "u");
        SessionInfo globex = StoreFixtures.root("s", "globex", "u");
        try (RedisStateStore store = open(server, ring("keyring.json", true, KEY_1))) {
            store.create(acme, List.of(StoreFixtures.first(acme), StoreFixtures.user("s", 2, CANARY)));
            store.create(globex, List.of(StoreFixtures.first(globex), StoreFixtures.user("s", 2, "kept")));
        }
        // acme's entry removed from the keyring: acme now falls to "*", whose key never wrapped acme's data key
        try (RedisStateStore store = open(server, ring("shredded.json", false, KEY_1))) {
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(acme), 1, 2))
                    .isInstanceOf(KeyUnavailableException.class)
                    .satisfies(e -> assertThat(((KeyUnavailableException) e).tenant()).isEqualTo("acme"))
                    .hasMessageContaining("acme-1");
            assertThat(store.readOwn(SessionKey.of(globex), 1, 2).toString()).contains("kept");
            assertThat(store.session(SessionKey.of(acme))).as("the clear session row stays until deleted").isPresent();
        }
    }

    @Test
    void damagedSealedBytesAreAStorageErrorNamingTheTenantAndDataKeyNumber() throws IOException {
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        KeyProvider keys = ring("keyring.json", true, KEY_1);
        try (RedisStateStore store = open(server, keys); SealedBytes bytes = new SealedBytes(server)) {
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY)));
            byte[] ev = SealedBytes.key("tl:{acme/s}:ev");
            byte[] entry = bytes.redis().lindex(ev, 1);
            entry[20] ^= 0x01; // inside the ciphertext: the header after the last newline stays intact
            assertThat(bytes.redis().lset(ev, 1, entry)).isEqualTo("OK");
            assertThat(store.readOwn(SessionKey.of(info), 1, 1)).hasSize(1);
            assertThatThrownBy(() -> store.readOwn(SessionKey.of(info), 2, 2)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("tenant 'acme'").hasMessageContaining("data key 1");
        }
    }

    @Test
    void sealedSharedWritesOfAStepWhoseWriterDiedAreRolledForwardByTheNextAppend() throws IOException {
        KeyProvider keys = ring("keyring.json", true, KEY_1);
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        SessionKey s = SessionKey.of(info);
        try (RedisStateStore store = open(server, keys); SealedBytes bytes = new SealedBytes(server)) {
            store.create(info, List.of(StoreFixtures.first(info)));
            long epoch = ((LeaseResult.Acquired) store.acquire(s, "me", Duration.ofSeconds(30), null)).lease().epoch();
            ScopedWrite fact = StoreFixtures.setUserVar("acme", "u", "fact", "\"" + CANARY + "\"");
            // the step's events and its sealed record of shared writes are in; its writer died before applying them
            String recorded = Sealer.by(new PayloadSealer(keys, store)).seal(Records.encodeWrites(List.of(fact)), Records.writesPlace(s));
            assertThat(ValueCodec.isCarrier(recorded)).isTrue();
            byte[] meta = SealedBytes.key(new Keys("tl").session(s)[Keys.META]);
            bytes.redis().hset(meta, SealedBytes.key("wip"), ValueCodec.bytes(recorded, 1, recorded.length()));

            store.append(AppendRequest.of(s, 1, epoch, List.of(StoreFixtures.user("s", 2, "next"))));
            assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("acme", "u")).toString()).contains(CANARY);
            assertThat(bytes.redis().hexists(meta, SealedBytes.key("wip"))).as("cleared once applied").isFalse();
            assertThat(bytes.redis().hvals(SealedBytes.key(new Keys("tl").variables(VariableScope.USER, ScopedWrite.userKey("acme", "u")))))
                    .hasSize(1).allMatch(v -> v[0] == (byte) 0xF1);
        }
    }

    @Test
    void aSealedEventEntryIs33BytesLongerThanItsPlainOne() throws IOException {
        SessionInfo info = StoreFixtures.root("s", "acme", "u");
        List<dev.threadline.core.event.StoredEvent> events = List.of(StoreFixtures.first(info), StoreFixtures.user("s", 2, CANARY));
        try (RedisStateStore plain = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix("plain"));
             RedisStateStore sealed = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix("sealed")
                     .withKeys(ring("keyring.json", true, KEY_1)));
             SealedBytes bytes = new SealedBytes(server)) {
            plain.create(info, events);
            sealed.create(info, events);
            List<byte[]> p = bytes.redis().lrange(SealedBytes.key("plain:{acme/s}:ev"), 0, -1);
            List<byte[]> s = bytes.redis().lrange(SealedBytes.key("sealed:{acme/s}:ev"), 0, -1);
            assertThat(s).hasSize(2);
            for (int i = 0; i < 2; i++) {
                assertThat(s.get(i).length - p.get(i).length).as("bytes per event (target: at most 40)").isEqualTo(PayloadSealer.OVERHEAD);
            }
            assertThat(PayloadSealer.OVERHEAD).isEqualTo(33);
        }
    }

    @Test
    void twoStoresStartingATenantAtOnceAgreeOnItsDataKey() throws Exception {
        KeyProvider keys = ring("keyring.json", true, KEY_1);
        try (RedisStateStore a = open(server, keys); RedisStateStore b = open(server, keys)) {
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                RedisStateStore store = i % 2 == 0 ? a : b;
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
}
