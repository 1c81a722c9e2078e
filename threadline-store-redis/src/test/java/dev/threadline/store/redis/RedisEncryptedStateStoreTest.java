package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.store.StateStore;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole store conformance suite on a standalone Redis server with encryption at rest on (ADR 0049): every
 * payload sealed under the tenant's data key, wrapped by a key from the environment provider (one key for every
 * tenant); each test under a key prefix of its own.
 */
class RedisEncryptedStateStoreTest extends StateStoreContract {
    /** A fixed 32-byte key-encryption key (the tests' own, never a real one). */
    static final String KEK = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
    private static final AtomicInteger STORES = new AtomicInteger();
    private static RedisProcess server;

    @BeforeAll
    static void startServer() {
        server = RedisProcess.start(List.of());
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Override
    public StateStore open(Clock clock) {
        return RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix("etck" + STORES.incrementAndGet())
                .withClock(clock).withKeys(KeyProviders.environment(Map.of("THREADLINE_KEK", KEK))));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(RedisEncryptedStateStoreTest.class)).isEmpty();
    }
}
