package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisClusterProcesses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store conformance suite on a 3-master Redis Cluster (each test under a key prefix of its own). */
class RedisClusterStateStoreTest extends StateStoreContract {
    private static final AtomicInteger STORES = new AtomicInteger();
    private static RedisClusterProcesses server;

    @BeforeAll
    static void startServer() {
        server = RedisClusterProcesses.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Override
    public StateStore open(Clock clock) {
        return RedisStateStore.open(server.url(), RedisStateStore.Options.defaults()
                .withPrefix("tck" + STORES.incrementAndGet()).withClock(clock));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(RedisClusterStateStoreTest.class)).isEmpty();
    }

    @Test
    void sealsPayloadsAtRestWhenItsUrlNamesKeys(@TempDir Path dir) throws Exception {
        Path ring = RedisEncryptionTest.keyring(dir, "keyring.json", true, RedisEncryptionTest.KEY_1);
        String prefix = "sealed" + STORES.incrementAndGet();
        SessionInfo root = StoreFixtures.root("root", "acme", "u");
        SessionKey k = SessionKey.of(root);
        try (StateStore store = RedisStateStore.open(server.url() + "?keys=keyring:" + ring, RedisStateStore.Options.defaults().withPrefix(prefix))) {
            store.create(root, List.of(StoreFixtures.first(root), StoreFixtures.user("root", 2, RedisEncryptionTest.CANARY)));
            long epoch = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease().epoch();
            store.append(new AppendRequest(k, 2, epoch, List.of(StoreFixtures.user("root", 3, "more")),
                    List.of(StoreFixtures.setAppVar("acme", "motto", "\"" + RedisEncryptionTest.CANARY + "\"")), null));
            SessionInfo fork = StoreFixtures.branch(root, "fork", 2);
            store.create(fork, List.of(StoreFixtures.user("fork", 3, "forked")),
                    new CommandRecord(k, "fork-1", "fp", 2, RedisEncryptionTest.CANARY));
            assertThat(store.readOwn(k, 1, 3).toString()).contains(RedisEncryptionTest.CANARY);
            assertThat(store.variables(VariableScope.APP, "acme").toString()).contains(RedisEncryptionTest.CANARY);
            assertThat(store.command(k, "fork-1").orElseThrow().result()).isEqualTo(RedisEncryptionTest.CANARY);
        }
        try (StateStore plain = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix(prefix))) {
            assertThat(plain.head(k)).as("what stays in clear reads without keys").isEqualTo(3);
            assertThat(plain.session(k)).isPresent();
            for (Runnable sealed : List.<Runnable>of(() -> plain.readOwn(k, 2, 2), () -> plain.variables(VariableScope.APP, "acme"),
                    () -> plain.command(k, "fork-1"), () -> plain.readOwn(new SessionKey("acme", "fork"), 3, 3))) {
                assertThatThrownBy(sealed::run).isInstanceOf(StorageException.class).hasMessageContaining("is sealed (encryption at rest)");
            }
        }
    }

    @Test
    void talksToACluster() throws Exception {
        try (StateStore store = open(Clock.systemUTC())) {
            assertThat(((RedisStateStore) store).isCluster()).isTrue();
            assertThat(store.durability()).contains("cluster").contains("appendfsync always");
        }
    }
}
