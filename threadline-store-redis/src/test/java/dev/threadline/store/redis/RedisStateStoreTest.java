package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.util.List;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The store conformance suite on a standalone Redis server (each test under a key prefix of its own). */
class RedisStateStoreTest extends StateStoreContract {
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
        return RedisStateStore.open(server.url(), RedisStateStore.Options.defaults()
                .withPrefix("tck" + STORES.incrementAndGet()).withClock(clock));
    }

    @Test
    void prunesHistorySoThePruningContractTakesTheRealPath() {
        try (StateStore store = open(Clock.systemUTC())) {
            assertThat(store.prunesHistory()).isTrue();
        }
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(RedisStateStoreTest.class)).isEmpty();
    }
}
