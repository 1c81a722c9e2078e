package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.RoundTripFixtures;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.harness.servers.PgServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Versions 4 to 6 of this store sealed a session's older transcript into a segment when a snapshot was
 * saved (ADR 0028); this version seals nothing (ADR 0031) but must read what they sealed. The test seals
 * a range as they did (one segment row of the payloads, the rows' payloads NULL), then reads every kind
 * of range back: whole, starting inside the segment, after it, and as a load does; and a new snapshot
 * leaves the segment and the rows as they are.
 */
class PostgresSealedByAnEarlierVersionTest {
    @Test
    void aTranscriptSealedByAnEarlierVersionReadsBackExactlyOverEveryRange() throws Exception {
        String schema = PgStores.freshSchema("sealed_before");
        SessionKey key = new SessionKey("t", "old");
        try (PostgresStateStore store = PostgresStateStore.open(PgStores.url(),
                PostgresStateStore.Options.defaults().withSchema(schema))) {
            long epoch = PgStores.leasedSession(store, key, 1, "w");
            List<StoredEvent> all = new ArrayList<>(store.readOwn(key, 1, 1));
            List<StoredEvent> more = new ArrayList<>(StoreFixtures.messages("old", 2, 39));
            more.add(StoreFixtures.turnCompleted("old", 41)); // a row outside the transcript, inside the sealed range
            more.addAll(StoreFixtures.messages("old", 42, 9));
            store.append(AppendRequest.of(key, 1, epoch, more));
            all.addAll(more);
            try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
                s.execute("SET search_path TO " + schema);
                String sid = "(SELECT sid FROM sessions WHERE tenant = 't' AND id = 'old')";
                s.execute("INSERT INTO segments (sid, last_seq, first_seq, v, payloads) SELECT " + sid + ", 45, 1, 3,"
                        + " '[' || string_agg(payload, ',' ORDER BY seq) || ']' FROM events WHERE sid = " + sid
                        + " AND seq BETWEEN 1 AND 45 AND touches_transcript");
                assertThat(s.executeUpdate("UPDATE events SET payload = NULL WHERE sid = " + sid
                        + " AND seq BETWEEN 1 AND 45 AND touches_transcript")).as("rows sealed")
                        .isEqualTo(all.stream().filter(e -> e.seq() <= 45 && e.event().touchesTranscript()).count());
            }

            assertThat(store.readOwn(key, 1, 50)).isEqualTo(all);
            for (long[] range : new long[][] {{1, 50}, {1, 45}, {10, 20}, {30, 48}, {46, 50}}) {
                List<Event> transcript = all.stream().filter(e -> e.seq() >= range[0] && e.seq() <= range[1])
                        .filter(e -> e.event().touchesTranscript()).map(StoredEvent::event).toList();
                assertThat(store.readOwnTranscriptEvents(key, range[0], range[1])).as("transcript %d..%d", range[0], range[1])
                        .isEqualTo(transcript);
                assertThat(store.readOwnTranscript(key, range[0], range[1])).as("transcript rows %d..%d", range[0], range[1])
                        .isEqualTo(all.stream().filter(e -> e.seq() >= range[0] && e.seq() <= range[1])
                                .filter(e -> e.event().touchesTranscript()).toList());
            }

            store.saveSnapshot(key, RoundTripFixtures.snapshot(50));
            try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), min(first_seq), max(last_seq) FROM " + schema + ".segments")) {
                rs.next();
                assertThat(rs.getLong(1)).as("the snapshot sealed nothing more").isEqualTo(1);
                assertThat(rs.getLong(3)).isEqualTo(45);
            }
            assertThat(store.readOwn(key, 1, 50)).isEqualTo(all);
        }
    }
}
