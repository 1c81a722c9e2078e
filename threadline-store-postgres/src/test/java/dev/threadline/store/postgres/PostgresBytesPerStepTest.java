package dev.threadline.store.postgres;

import dev.threadline.harness.servers.PgServer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A message is written once: the WAL one single-message step writes does not grow with the history
 * (measured at 10 and at 3,000 events, as the server's WAL position moves; the server is shared, so
 * the tests of this JVM run one at a time around it).
 */
class PostgresBytesPerStepTest {
    private static final int STEPS = 40;

    private static long walPosition() throws SQLException {
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The mean WAL bytes of a one-message step at a history of {@code history} events. */
    private static double bytesPerStep(PostgresStateStore store, String id, int history) throws SQLException {
        SessionKey key = new SessionKey("t", id);
        long epoch = PgStores.leasedSession(store, key, 1, "w");
        long head = 1;
        while (head < history) {
            int n = (int) Math.min(500, history - head);
            head = store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(id, head + 1, n)));
        }
        store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(id, head + 1, 1))); // warm the statements
        head++;
        long before = walPosition();
        for (int i = 0; i < STEPS; i++) {
            head = store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(id, head + 1, 1)));
        }
        return (walPosition() - before) / (double) STEPS;
    }

    @Test
    void theWalOfAStepStaysFlatAsTheHistoryGrows() throws SQLException {
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                PostgresStateStore.Options.defaults().withSchema(PgStores.freshSchema("bytes")))) {
            double small = bytesPerStep(store, "short", 10);
            double large = bytesPerStep(store, "long", 3_000);
            System.out.printf("postgres WAL bytes per one-message step: %.0f at 10 events, %.0f at 3000%n", small, large);
            assertThat(large).as("WAL bytes per step at 3000 vs %.0f at 10", small).isLessThan(small * 1.5);
        }
    }
}
