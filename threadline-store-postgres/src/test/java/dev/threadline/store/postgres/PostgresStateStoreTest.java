package dev.threadline.store.postgres;

import dev.threadline.harness.servers.PgServer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The store conformance suite on a real PostgreSQL server: a fresh schema per test. */
class PostgresStateStoreTest extends StateStoreContract {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @Override
    public StateStore open(Clock clock) {
        PgServer server = PgServer.shared();
        server.createDatabase("tck");
        return PostgresStateStore.open(server.url("tck"), PostgresStateStore.Options.defaults().withClock(clock)
                .withSchema("tck_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet()));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(PostgresStateStoreTest.class)).isEmpty();
    }
}
