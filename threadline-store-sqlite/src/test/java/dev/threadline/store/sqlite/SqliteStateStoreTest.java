package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store conformance suite on a SQLite file. */
class SqliteStateStoreTest extends StateStoreContract {
    @TempDir
    Path dir;

    @Override
    public StateStore open(Clock clock) {
        return SqliteStateStore.open(dir.resolve("nested/dirs/threadline.db"), SqliteStateStore.Options.defaults().withClock(clock));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(SqliteStateStoreTest.class)).isEmpty();
    }
}
