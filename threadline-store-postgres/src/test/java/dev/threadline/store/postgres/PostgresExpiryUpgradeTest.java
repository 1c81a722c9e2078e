package dev.threadline.store.postgres;

import static dev.threadline.store.tck.StoreFixtures.first;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.SweepResult;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A version 6 database (before sessions had an {@code expires_at} column) is migrated when a store
 * opens it: each session's expiry is taken from its stored info (to the nanosecond; one beyond 2262
 * saturates), so retention lists and sweeps the sessions that expired before the migration, and keeps
 * those that never expire or expire later.
 */
class PostgresExpiryUpgradeTest {

    private static SessionInfo session(String id, Instant expiresAt) {
        return new SessionInfo(id, "acme", "alice", SessionConfig.DEFAULT, Map.of(), StoreFixtures.T0, expiresAt, null, 0);
    }

    private static long count(String schema, String sql) throws SQLException {
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void aVersion6DatabaseTakesEachExpiryFromItsSessionInfoAndSweeps() throws Exception {
        String schema = PgStores.freshSchema("v6");
        String url = PgStores.url();
        PostgresStateStore.Options options = PostgresStateStore.Options.defaults().withSchema(schema);
        Instant soon = StoreFixtures.T0.plus(Duration.ofHours(1)).plusNanos(123_456_789);
        try (PostgresStateStore store = PostgresStateStore.open(url, options)) {
            for (SessionInfo info : List.of(session("expiring", soon), session("later", StoreFixtures.T0.plus(Duration.ofDays(30))),
                    session("never", null), session("far", Instant.parse("3000-01-01T00:00:00Z")))) {
                store.create(info, List.of(first(info)));
            }
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            s.execute("DROP INDEX sessions_by_expiry");
            s.execute("ALTER TABLE sessions DROP COLUMN expires_at");
            for (String[] t : SealedColumns.PAYLOADS) { // migration 11, the sealed payload columns
                if (!t[0].equals("history_bases")) {
                    s.execute("ALTER TABLE " + t[0] + " DROP CONSTRAINT " + t[0] + "_one_payload, DROP COLUMN " + t[1] + "_sealed");
                }
            }
            s.execute("DROP TABLE journal_text"); // migrations 8 to 10, which come after: a version 6 database has none
            s.execute("DROP TABLE history_bases");
            s.execute("DROP TABLE data_keys");
            s.execute("DELETE FROM schema_version WHERE version >= 7");
        }

        TickingClock clock = new TickingClock(StoreFixtures.T0.plus(Duration.ofDays(1)));
        try (PostgresStateStore store = PostgresStateStore.open(url, options.withClock(clock))) {
            assertThat(store.expired(soon.minusNanos(1), 10)).isEmpty();
            assertThat(store.expired(soon, 10)).containsExactly(new SessionKey("acme", "expiring"));
            assertThat(store.expired(Instant.parse("2262-04-11T00:00:00Z"), 10)).hasSize(2);
        }
        assertThat(count(schema, "SELECT max(version) FROM schema_version")).isEqualTo(Migrations.latest());
        assertThat(count(schema, "SELECT count(*) FROM sessions WHERE expires_at IS NULL")).isEqualTo(1);
        assertThat(count(schema, "SELECT max(expires_at) FROM sessions")).as("beyond 2262: saturated").isEqualTo(Long.MAX_VALUE);

        try (Threadline tl = Threadline.builder().store(PostgresStateStore.open(url, options.withClock(clock))).clock(clock).build()) {
            assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0));
            assertThat(tl.tenant("acme").sessions().items()).extracting(s -> s.info().id())
                    .containsExactlyInAnyOrder("later", "never", "far");
        }
    }
}
