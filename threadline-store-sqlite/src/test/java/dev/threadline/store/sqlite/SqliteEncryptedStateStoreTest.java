package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole store conformance suite on a SQLite file with encryption at rest on (ADR 0049): every payload sealed
 * under the tenant's data key, wrapped by a key from the environment provider (one key for every tenant).
 */
class SqliteEncryptedStateStoreTest extends StateStoreContract {
    /** A fixed 32-byte key-encryption key (the tests' own, never a real one). */
    static final String KEK = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    @TempDir
    Path dir;

    @Override
    public StateStore open(Clock clock) {
        return SqliteStateStore.open(dir.resolve("sealed.db"), SqliteStateStore.Options.defaults().withClock(clock)
                .withKeys(KeyProviders.environment(Map.of("THREADLINE_KEK", KEK))));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(SqliteEncryptedStateStoreTest.class)).isEmpty();
    }
}
