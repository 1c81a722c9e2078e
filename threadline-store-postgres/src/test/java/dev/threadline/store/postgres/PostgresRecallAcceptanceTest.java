package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.RecallAcceptance;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import org.junit.jupiter.api.Test;

/** Issue 38's acceptance on PostgreSQL: after 2,000 turns and many compactions, recall finds turn 3's door code first (tsvector, GIN). */
class PostgresRecallAcceptanceTest {
    @Test
    void recallFindsTheDoorCodeFirstAfter2000Turns() {
        PgServer server = PgServer.shared();
        server.createDatabase("tck");
        TickingClock clock = new TickingClock(StoreFixtures.T0);
        PostgresStateStore store = PostgresStateStore.open(server.url("tck"), PostgresStateStore.Options.defaults().withClock(clock)
                .withSchema("recall_" + ProcessHandle.current().pid()));
        assertThat(RecallAcceptance.run(store, clock, 2_000)).contains("4712");
    }
}
