package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.StateStore;
import dev.threadline.store.tck.ContractGuard;
import dev.threadline.store.tck.StateStoreContract;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The whole store conformance suite through pgbouncer in transaction pooling mode (Debian's 1.18: no
 * prepared statements across transactions), with {@code direct=} the server for LISTEN, the notifier and
 * schema changes (ADR 0048): a fresh schema per test, so every statement also runs with the per-transaction
 * {@code SET LOCAL search_path}, and SERIALIZABLE for every other test (the per-transaction isolation).
 */
class PostgresBehindPgBouncerTest extends StateStoreContract {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    @Override
    public StateStore open(Clock clock) {
        int n = SCHEMAS.incrementAndGet();
        return PostgresStateStore.open(PgBouncers.url("tck_bouncer"), PostgresStateStore.Options.defaults().withClock(clock)
                .withSchema("tckb_" + ProcessHandle.current().pid() + "_" + n).withSerializable(n % 2 == 0));
    }

    @Test
    void runsTheWholeContract() {
        assertThat(ContractGuard.problems(PostgresBehindPgBouncerTest.class)).isEmpty();
    }
}
