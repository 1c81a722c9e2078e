package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.harness.servers.PgServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A step's compare-and-set of the session's heads row is a HOT update (migration 6, ADR 0030): it changes no
 * indexed column, so PostgreSQL writes the new version beside the old one with no index entry, unless
 * the step moves the session into a later recency period, once per period. Counted by the server
 * ({@code pg_stat_user_tables}) on a connection of the test's own, which flushes its counts before they
 * are read.
 */
class PostgresHotStepTest {
    private static final int STEPS = 20;

    /** (updates, HOT updates) of the schema's heads table. */
    private static long[] updates(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_stat_force_next_flush()"); // this backend's counts reach the shared ones as it goes idle
            try (ResultSet rs = s.executeQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                    + " WHERE relid = 'heads'::regclass")) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }

    private static boolean step(Connection c, SessionKey key, long head, long epoch, long now) throws SQLException {
        AppendRequest request = AppendRequest.of(key, head, epoch, StoreFixtures.messages(key.id(), head + 1, 1));
        return StepStatement.run(c, request, EventRows.encode(request.events()), head + 1, now);
    }

    @Test
    void aStepUpdatesTheSessionRowHotUnlessItEntersALaterRecencyPeriod() throws SQLException {
        String schema = PgStores.freshSchema("hot");
        SessionKey key = new SessionKey("t", "s");
        long epoch;
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                PostgresStateStore.Options.defaults().withSchema(schema))) {
            epoch = PgStores.leasedSession(store, key, 1, "w");
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            long period = 1_000_000L * Migrations.RECENT_NANOS;
            assertThat(step(c, key, 1, epoch, period)).as("the first step, into the test's period").isTrue();
            long head = 2;
            long[] before = updates(c);
            for (int i = 0; i < STEPS; i++, head++) {
                assertThat(step(c, key, head, epoch, period + 1 + i)).as("step %d moved the head", i).isTrue();
            }
            long[] within = updates(c);
            assertThat(within[0] - before[0]).as("updates of the session row").isEqualTo(STEPS);
            assertThat(within[1] - before[1]).as("HOT updates among them").isEqualTo(STEPS);

            assertThat(step(c, key, head, epoch, period + Migrations.RECENT_NANOS)).isTrue();
            long[] next = updates(c);
            assertThat(next[0] - within[0]).as("updates entering the next period").isEqualTo(1);
            assertThat(next[1] - within[1]).as("HOT updates entering the next period: the listing index moves").isZero();
        }
    }
}
