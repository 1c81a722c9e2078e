package dev.threadline.store.sqlite;

import static dev.threadline.store.tck.StoreFixtures.first;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.SweepResult;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A version 6 file (before sessions had an {@code expires_at} column) is upgraded when opened: each
 * session's expiry is taken from its stored info, so retention lists and sweeps the sessions that
 * expired before the upgrade, and keeps those that never expire.
 */
class SqliteExpiryUpgradeTest {
    @TempDir
    Path dir;

    private static SessionInfo session(String id, Instant expiresAt) {
        return new SessionInfo(id, "acme", "alice", SessionConfig.DEFAULT, Map.of(), StoreFixtures.T0, expiresAt, null, 0);
    }

    @Test
    void aVersion6FileTakesEachExpiryFromItsSessionInfoAndSweeps() throws Exception {
        Path file = dir.resolve("v6.db");
        Instant soon = StoreFixtures.T0.plus(Duration.ofHours(1)).plusNanos(123_456_789);
        SessionInfo expiring = session("expiring", soon);
        SessionInfo later = session("later", StoreFixtures.T0.plus(Duration.ofDays(30)));
        SessionInfo never = session("never", null);
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            for (SessionInfo info : List.of(expiring, later, never)) {
                store.create(info, List.of(first(info)));
            }
        }
        OldSchemaFixtures.downgradeToV6(file);
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'expires_at'")).isZero();
        }

        TickingClock clock = new TickingClock(StoreFixtures.T0.plus(Duration.ofDays(1)));
        try (SqliteStateStore store = SqliteStateStore.open(file, SqliteStateStore.Options.defaults().withClock(clock))) {
            assertThat(store.expired(soon.minusNanos(1), 10)).isEmpty();
            assertThat(store.expired(soon, 10)).containsExactly(new SessionKey("acme", "expiring"));
            assertThat(store.session(new SessionKey("acme", "later")).orElseThrow().expiresAt()).isEqualTo(later.expiresAt());
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryLong("SELECT count(*) FROM sessions WHERE expires_at IS NULL")).isEqualTo(1);
            assertThat(raw.queryString("PRAGMA integrity_check")).isEqualTo("ok");
        }

        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(file,
                SqliteStateStore.Options.defaults().withClock(clock))).clock(clock).build()) {
            assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0));
            assertThat(tl.tenant("acme").sessions().items()).extracting(s -> s.info().id()).containsExactlyInAnyOrder("later", "never");
        }
    }
}
