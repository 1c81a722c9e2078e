package dev.threadline.core.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.KeyUnavailableException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.DataKeys;
import dev.threadline.core.store.WrappedDataKey;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sealing payloads under per-tenant data keys wrapped by key-encryption keys (ADR 0049). */
class PayloadSealerTest {
    private static final byte[] PLACE = "acme\u0000s1\u00007\u0000event".getBytes(StandardCharsets.UTF_8);

    private static String key() {
        return Base64.getEncoder().encodeToString(Aead.newKey());
    }

    private static KeyProvider keyring(Path dir, String json) throws IOException {
        Path f = dir.resolve("keyring-" + System.nanoTime() + ".json");
        Files.writeString(f, json);
        return KeyProviders.keyring(f);
    }

    private static KeyProvider env(String acme) {
        return KeyProviders.environment(Map.of("THREADLINE_KEK_ACME", acme, "THREADLINE_KEK", key(), "PATH", "/bin"));
    }

    @Property(tries = 200)
    void whatIsSealedOpensAtItsPlaceAndCostsThirtyThreeBytes(@ForAll byte[] plain) {
        PayloadSealer s = new PayloadSealer(env(key()), new InMemoryStateStore());
        byte[] sealed = s.seal("acme", plain, PLACE);
        assertThat(sealed).hasSize(plain.length + PayloadSealer.OVERHEAD);
        assertThat(PayloadSealer.isSealed(sealed)).isTrue();
        assertThat(s.open("acme", sealed, PLACE)).isEqualTo(plain);
    }

    @Test
    void theCanaryIsNotInTheSealedBytesAndAPlainJsonPayloadIsNotTakenForASealedOne() {
        PayloadSealer s = new PayloadSealer(env(key()), new InMemoryStateStore());
        byte[] plain = "{\"type\":\"user_message\",\"text\":\"CANARY-7f3a\"}".getBytes(StandardCharsets.UTF_8);
        byte[] sealed = s.seal("acme", plain, PLACE);
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("CANARY");
        assertThat(PayloadSealer.isSealed(plain)).isFalse();
    }

    @Test
    void aPayloadMovedToAnotherPlaceOrDamagedDoesNotOpen() {
        PayloadSealer s = new PayloadSealer(env(key()), new InMemoryStateStore());
        byte[] sealed = s.seal("acme", "hello".getBytes(StandardCharsets.UTF_8), PLACE);
        byte[] elsewhere = "acme\u0000s1\u00008\u0000event".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> s.open("acme", sealed, elsewhere)).isInstanceOf(StorageException.class)
                .hasMessageContaining("tenant 'acme'").hasMessageContaining("another place");
        byte[] damaged = sealed.clone();
        damaged[damaged.length - 3] ^= 1;
        assertThatThrownBy(() -> s.open("acme", damaged, PLACE)).isInstanceOf(StorageException.class).hasMessageContaining("damaged");
    }

    @Test
    void aThreadsCipherStillSealsAndOpensAfterAValueThatDidNotOpen() {
        PayloadSealer s = new PayloadSealer(env(key()), new InMemoryStateStore());
        byte[] sealed = s.seal("acme", "hello".getBytes(StandardCharsets.UTF_8), PLACE);
        byte[] damaged = sealed.clone();
        damaged[PayloadSealer.OVERHEAD] ^= 1;
        assertThatThrownBy(() -> s.open("acme", damaged, PLACE)).isInstanceOf(StorageException.class);
        byte[] next = s.seal("acme", "again".getBytes(StandardCharsets.UTF_8), PLACE);
        assertThat(new String(s.open("acme", next, PLACE), StandardCharsets.UTF_8)).isEqualTo("again");
        assertThat(new String(s.open("acme", sealed, PLACE), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(s.seal("acme", "again".getBytes(StandardCharsets.UTF_8), PLACE)).as("a fresh nonce each time").isNotEqualTo(next);
    }

    @Test
    void twoProcessesStartingATenantAtOnceShareItsFirstDataKey() {
        InMemoryStateStore store = new InMemoryStateStore();
        KeyProvider kek = env(key());
        PayloadSealer a = new PayloadSealer(kek, store);
        PayloadSealer b = new PayloadSealer(kek, store);
        byte[] fromA = a.seal("acme", "a".getBytes(StandardCharsets.UTF_8), PLACE);
        byte[] fromB = b.seal("acme", "b".getBytes(StandardCharsets.UTF_8), PLACE);
        assertThat(store.dataKeys("acme")).hasSize(1);
        assertThat(new String(b.open("acme", fromA, PLACE), StandardCharsets.UTF_8)).isEqualTo("a");
        assertThat(new String(a.open("acme", fromB, PLACE), StandardCharsets.UTF_8)).isEqualTo("b");
    }

    @Test
    void aSecondProcessLosingTheRaceForANumberUsesTheKeyTheFirstAdded() {
        InMemoryStateStore store = new InMemoryStateStore();
        KeyProvider kek = env(key());
        boolean[] raced = {false};
        DataKeys stale = new DataKeys() { // sees no key yet, as a process that read before the other added number 1
            @Override
            public List<WrappedDataKey> dataKeys(String tenant) {
                return raced[0] ? store.dataKeys(tenant) : List.of();
            }

            @Override
            public boolean addDataKey(WrappedDataKey key) {
                raced[0] = true;
                return store.addDataKey(key);
            }
        };
        PayloadSealer first = new PayloadSealer(kek, store);
        byte[] one = first.seal("acme", "1".getBytes(StandardCharsets.UTF_8), PLACE);
        PayloadSealer second = new PayloadSealer(kek, stale);
        byte[] two = second.seal("acme", "2".getBytes(StandardCharsets.UTF_8), PLACE);
        assertThat(store.dataKeys("acme")).hasSize(1);
        assertThat(new String(first.open("acme", two, PLACE), StandardCharsets.UTF_8)).isEqualTo("2");
        assertThat(new String(second.open("acme", one, PLACE), StandardCharsets.UTF_8)).isEqualTo("1");
    }

    @Test
    void rotationSealsNewPayloadsUnderANewKeyWrappedByTheNewActiveKekAndOldOnesStillOpen(@TempDir Path dir) throws IOException {
        String k1 = key();
        InMemoryStateStore store = new InMemoryStateStore();
        PayloadSealer before = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k1\",\"keys\":{\"k1\":\"" + k1 + "\"}}}}"), store);
        byte[] old = before.seal("acme", "old".getBytes(StandardCharsets.UTF_8), PLACE);

        KeyProvider rotated = keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k2\",\"keys\":{\"k1\":\"" + k1 + "\",\"k2\":\"" + key() + "\"}}}}");
        PayloadSealer after = new PayloadSealer(rotated, store);
        assertThat(after.rotate("acme")).isEqualTo(2);
        byte[] fresh = after.seal("acme", "new".getBytes(StandardCharsets.UTF_8), PLACE);
        assertThat(store.dataKeys("acme")).extracting(WrappedDataKey::kekId).containsExactly("k1", "k2");
        assertThat(fresh[4]).isEqualTo((byte) 2);
        assertThat(new String(after.open("acme", old, PLACE), StandardCharsets.UTF_8)).isEqualTo("old");
        assertThat(new String(after.open("acme", fresh, PLACE), StandardCharsets.UTF_8)).isEqualTo("new");
    }

    @Test
    void destroyingATenantsKeysShredsItsDataAndLeavesOtherTenantsReadable(@TempDir Path dir) throws IOException {
        String acme = key();
        String globex = key();
        InMemoryStateStore store = new InMemoryStateStore();
        PayloadSealer s = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"a1\",\"keys\":{\"a1\":\"" + acme
                + "\"}},\"globex\":{\"active\":\"g1\",\"keys\":{\"g1\":\"" + globex + "\"}}}}"), store);
        byte[] a = s.seal("acme", "acme's".getBytes(StandardCharsets.UTF_8), PLACE);
        byte[] g = s.seal("globex", "globex's".getBytes(StandardCharsets.UTF_8), PLACE);

        PayloadSealer afterShred = new PayloadSealer(keyring(dir, "{\"tenants\":{\"globex\":{\"active\":\"g1\",\"keys\":{\"g1\":\""
                + globex + "\"}}}}"), store); // a new process: nothing cached
        assertThatThrownBy(() -> afterShred.open("acme", a, PLACE)).isInstanceOfSatisfying(KeyUnavailableException.class, e -> {
            assertThat(e.tenant()).isEqualTo("acme");
            assertThat(e.getMessage()).contains("no entry for it");
        });
        assertThat(new String(afterShred.open("globex", g, PLACE), StandardCharsets.UTF_8)).isEqualTo("globex's");
    }

    @Test
    void aDifferentKeyUnderTheSameIdIsOneClearErrorNamingTenantAndKey(@TempDir Path dir) throws IOException {
        InMemoryStateStore store = new InMemoryStateStore();
        PayloadSealer s = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k1\",\"keys\":{\"k1\":\"" + key() + "\"}}}}"), store);
        byte[] sealed = s.seal("acme", "x".getBytes(StandardCharsets.UTF_8), PLACE);
        PayloadSealer wrong = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k1\",\"keys\":{\"k1\":\"" + key() + "\"}}}}"), store);
        assertThatThrownBy(() -> wrong.open("acme", sealed, PLACE)).isInstanceOfSatisfying(KeyUnavailableException.class, e -> {
            assertThat(e.keyId()).isEqualTo("k1");
            assertThat(e.getMessage()).contains("tenant 'acme'").contains("does not open under the key in the keyring");
        });
        assertThatThrownBy(() -> wrong.seal("acme", "y".getBytes(StandardCharsets.UTF_8), PLACE))
                .isInstanceOf(KeyUnavailableException.class);
        assertThat(store.dataKeys("acme")).hasSize(1); // nothing written by the refused seal
    }

    @Test
    void aTenantWithoutAnyKeyIsRefusedBeforeAnythingIsWritten() {
        InMemoryStateStore store = new InMemoryStateStore();
        PayloadSealer s = new PayloadSealer(KeyProviders.environment(Map.of("THREADLINE_KEK_ACME", key())), store);
        assertThatThrownBy(() -> s.seal("globex", new byte[] {1}, PLACE)).isInstanceOfSatisfying(KeyUnavailableException.class, e -> {
            assertThat(e.tenant()).isEqualTo("globex");
            assertThat(e.getMessage()).contains("THREADLINE_KEK_GLOBEX").contains("THREADLINE_KEK ");
        });
        assertThat(store.dataKeys("globex")).isEmpty();
    }

    @Test
    void aTenantsOwnVariableWinsOverTheSharedOne() {
        KeyProvider p = env(key());
        assertThat(p.activeKeyId("acme")).isEqualTo("env:THREADLINE_KEK_ACME");
        assertThat(p.activeKeyId("globex")).isEqualTo("env:THREADLINE_KEK");
        assertThat(EnvironmentKeys.variable("team-7.eu")).isEqualTo("THREADLINE_KEK_TEAM_7_EU");
        assertThat(p.toString()).doesNotContain("=");
    }

    @Test
    void aBadKeyringIsRefusedNamingTheFileTheTenantAndWhatIsWrong(@TempDir Path dir) {
        assertThatThrownBy(() -> keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k1\",\"keys\":{\"k1\":\"c2hvcnQ=\"}}}}"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("tenant 'acme', key 'k1' is 5 bytes")
                .hasMessageContaining("openssl rand -base64 32");
        assertThatThrownBy(() -> keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k9\",\"keys\":{\"k1\":\"" + key() + "\"}}}}"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("\"active\" must name one of its keys [k1], not 'k9'");
        assertThatThrownBy(() -> keyring(dir, "{\"keys\":[]}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("is not a keyring");
        assertThatThrownBy(() -> KeyProviders.keyring(dir.resolve("missing.json"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("cannot read the keyring");
        assertThatThrownBy(() -> KeyProviders.environment(Map.of("THREADLINE_KEK", "not base64!")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("the environment variable THREADLINE_KEK is not base64");
    }

    /** A clock the test moves by hand. */
    private static final class HandClock extends Clock {
        long millis = 1_000_000;

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    @Test
    void aProcessPicksUpAnotherProcesssRotationOnceItsCachedKeyIsAMinuteOld() {
        InMemoryStateStore store = new InMemoryStateStore();
        KeyProvider kek = env(key());
        HandClock clock = new HandClock();
        PayloadSealer server = new PayloadSealer(kek, store, clock);
        PayloadSealer operator = new PayloadSealer(kek, store, clock);
        assertThat(server.ready("acme")).isEqualTo(1);
        assertThat(operator.rotate("acme")).isEqualTo(2);

        clock.millis += PayloadSealer.REFRESH_MILLIS - 1;
        assertThat(server.ready("acme")).as("still the cached key").isEqualTo(1);
        assertThat(PayloadSealer.keyNumber(server.seal("acme", new byte[] {1}, PLACE))).isEqualTo(1);
        clock.millis += 1;
        assertThat(server.ready("acme")).isEqualTo(2);
        byte[] sealed = server.seal("acme", new byte[] {1}, PLACE);
        assertThat(PayloadSealer.keyNumber(sealed)).isEqualTo(2);
        assertThat(sealed).startsWith(PayloadSealer.prefix(2));
    }

    @Test
    void rewrappingMovesEveryDataKeyUnderTheActiveKekSoTheOldKekCanBeRetired(@TempDir Path dir) throws IOException {
        String k1 = key();
        String k2 = key();
        InMemoryStateStore store = new InMemoryStateStore();
        PayloadSealer before = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k1\",\"keys\":{\"k1\":\"" + k1 + "\"}}}}"), store);
        byte[] old = before.seal("acme", "old".getBytes(StandardCharsets.UTF_8), PLACE);
        before.rotate("acme");
        byte[] newer = before.seal("acme", "newer".getBytes(StandardCharsets.UTF_8), PLACE);

        PayloadSealer both = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k2\",\"keys\":{\"k1\":\"" + k1
                + "\",\"k2\":\"" + k2 + "\"}}}}"), store);
        assertThat(both.rewrap("acme")).isEqualTo(2);
        assertThat(store.dataKeys("acme")).extracting(WrappedDataKey::kekId).containsExactly("k2", "k2");
        assertThat(both.rewrap("acme")).as("nothing left to wrap again").isZero();

        PayloadSealer retired = new PayloadSealer(keyring(dir, "{\"tenants\":{\"acme\":{\"active\":\"k2\",\"keys\":{\"k2\":\"" + k2 + "\"}}}}"), store);
        assertThat(new String(retired.open("acme", old, PLACE), StandardCharsets.UTF_8)).isEqualTo("old");
        assertThat(new String(retired.open("acme", newer, PLACE), StandardCharsets.UTF_8)).isEqualTo("newer");
    }

    @Test
    void aRewrapThatLostTheRaceLeavesTheOtherProcesssWrappingAndIsNotCounted() {
        InMemoryStateStore store = new InMemoryStateStore();
        WrappedDataKey one = new WrappedDataKey("acme", 1, "k1", new byte[] {1, 2});
        store.addDataKey(one);
        WrappedDataKey theirs = new WrappedDataKey("acme", 1, "k2", new byte[] {3});
        assertThat(store.rewrapDataKey(one, theirs)).isTrue();
        assertThat(store.rewrapDataKey(one, new WrappedDataKey("acme", 1, "k2", new byte[] {4}))).isFalse();
        assertThat(store.dataKeys("acme")).containsExactly(theirs);
        assertThatThrownBy(() -> store.rewrapDataKey(theirs, new WrappedDataKey("acme", 2, "k2", new byte[] {4})))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("acme/1 is not acme/2");
    }
}
