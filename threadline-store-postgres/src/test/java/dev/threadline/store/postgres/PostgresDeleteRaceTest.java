package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.harness.servers.PgServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The journal has no foreign key (migration 6, ADR 0030): what keeps a deletion from leaving events of a
 * step that commits meanwhile is the session row's lock, which the step's statement holds to its commit and
 * the deletion takes before it deletes anything. Here the step's transaction is held open while the
 * deletion starts; the deletion waits on it, and after both no row of the session is left in any table.
 */
class PostgresDeleteRaceTest {
    private static long count(Connection c, String sql, long sid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, sid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Whether a backend of this database is waiting on a lock (the deletion, behind the open step). */
    private static boolean someoneWaitsOnALock(Connection monitor) throws SQLException {
        try (Statement s = monitor.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    @Test
    void aStepCommittingWhileItsSessionIsDeletedLeavesNoEventsBehind() throws Exception {
        String schema = PgStores.freshSchema("delete_race");
        SessionKey key = new SessionKey("t", "doomed");
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                PostgresStateStore.Options.defaults().withSchema(schema));
             Connection step = PgServer.shared().connect(PgStores.DB);
             Connection monitor = PgServer.shared().connect(PgStores.DB)) {
            long epoch = PgStores.leasedSession(store, key, 3, "w");
            try (Statement s = step.createStatement()) {
                s.execute("SET search_path TO " + schema);
            }
            long sid = sidOf(step, key);
            step.setAutoCommit(false);
            AppendRequest request = AppendRequest.of(key, 3, epoch, StoreFixtures.messages("doomed", 4, 2));
            assertThat(StepStatement.run(step, request, EventRows.encode(request.events()), 5, 1L)).isTrue();

            CompletableFuture<Void> deletion = CompletableFuture.runAsync(() -> store.delete(key));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!someoneWaitsOnALock(monitor)) { // the deletion reached the row lock (or finished: then it failed to wait)
                assertThat(deletion).as("the deletion waits for the open step").isNotDone();
                assertThat(System.nanoTime()).as("the deletion reached the session's lock in time").isLessThan(deadline);
                Thread.onSpinWait();
            }
            assertThat(deletion).isNotDone();
            step.commit();
            deletion.get(30, TimeUnit.SECONDS);

            step.setAutoCommit(true);
            assertThat(count(step, "SELECT count(*) FROM events WHERE sid = ?", sid)).as("events left").isZero();
            assertThat(count(step, "SELECT count(*) FROM sessions WHERE sid = ?", sid)).as("session rows left").isZero();
            assertThat(StepStatement.run(step, AppendRequest.of(key, 5, epoch, StoreFixtures.messages("doomed", 6, 1)),
                    EventRows.encode(StoreFixtures.messages("doomed", 6, 1)), 6, 2L))
                    .as("a step after the deletion moves nothing").isFalse();
            assertThat(count(step, "SELECT count(*) FROM events WHERE sid = ?", sid)).as("events after a late step").isZero();
        }
    }

    private static long sidOf(Connection c, SessionKey key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT sid FROM sessions WHERE tenant = ? AND id = ?")) {
            ps.setString(1, key.tenant());
            ps.setString(2, key.id());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
