package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.store.StateStore;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The whole store conformance suite on a real PostgreSQL server with encryption at rest on (ADR 0049): every
 * payload sealed into its {@code bytea} column under the tenant's data key, wrapped by a key from the environment
 * provider (one key for every tenant); search ranks in process. A fresh schema per test.
 */
class PostgresEncryptedStateStoreTest extends StateStoreContract {
    /** A fixed 32-byte key-encryption key (the tests' own, never a real one). */
    static final String KEK = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @Override
    public StateStore open(Clock clock) {
        PgServer server = PgServer.shared();
        server.createDatabase("tck");
        return PostgresStateStore.open(server.url("tck"), PostgresStateStore.Options.defaults().withClock(clock)
                .withSchema("sealed_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet())
                .withKeys(KeyProviders.environment(Map.of("THREADLINE_KEK", KEK))));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(PostgresEncryptedStateStoreTest.class)).isEmpty();
    }
}
