package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.PruningAcceptance;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Issue 24's pruning acceptance on PostgreSQL (2,000 events, the latest 100 checkpoints kept), the stored
 * bytes measured as the store's tables with their indexes and TOAST after a {@code VACUUM FULL} (which a
 * prune's dead tuples need to give their space back; autovacuum reuses it in place meanwhile).
 */
class PostgresPruningAcceptanceTest {
    @Test
    void aPrunedSessionResumesForksKeepWorkingAndTheStoreKeepsFewerBytes() {
        PgServer server = PgServer.shared();
        server.createDatabase("tck");
        String schema = "prune_" + ProcessHandle.current().pid();
        TickingClock clock = new TickingClock(StoreFixtures.T0);
        PostgresStateStore store = PostgresStateStore.open(server.url("tck"), PostgresStateStore.Options.defaults().withClock(clock)
                .withSchema(schema));
        PruningAcceptance.Report r = PruningAcceptance.run(store, clock, 2_000, 100, () -> bytes(server, schema));
        System.out.println("postgresql: " + r);
        assertThat(r.bytesAfter()).isLessThan(r.bytesBefore());
    }

    /** The schema's tables, indexes and TOAST, in bytes, after a VACUUM FULL of each table. */
    private static long bytes(PgServer server, String schema) {
        try (Connection c = server.connect("tck"); Statement s = c.createStatement()) {
            java.util.List<String> tables = new java.util.ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = '" + schema + "'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            long total = 0;
            for (String t : tables) {
                s.execute("VACUUM FULL \"" + schema + "\".\"" + t + "\"");
                try (ResultSet rs = s.executeQuery("SELECT pg_total_relation_size('\"" + schema + "\".\"" + t + "\"')")) {
                    rs.next();
                    total += rs.getLong(1);
                }
            }
            return total;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
