package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.RoundTripFixtures;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.servers.PgServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshots of one session at three nearby seqs saved at once by many connections of several stores (as
 * several processes loading one session would): each seal starts after the last segment it sees, and the unique
 * {@code (sid, first_seq)} lets exactly one of those that start from the same seq write its segment
 * (ADR 0028). Whatever the interleaving, no snapshot save fails, each round of 20 messages is sealed
 * into exactly one segment, segments never overlap, every sealed row lies in one, and every read
 * gives back exactly what was appended; while readers read the journal through the seals.
 */
class PostgresSealRaceTest {
    private static final int STORES = 3;
    private static final int SEALERS_PER_STORE = 2;
    private static final int ROUNDS = 8;

    @ParameterizedTest(name = "serializable={0}")
    @ValueSource(booleans = {false, true})
    void racingSealsWriteOneSegmentPerRoundAndReadsStayExact(boolean serializable) throws Exception {
        String schema = PgStores.freshSchema("seal_race");
        String url = PgStores.url();
        List<PostgresStateStore> stores = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
            stores.add(PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema)
                    .withPoolSize(SEALERS_PER_STORE + 1).withSerializable(serializable)));
        }
        SessionKey key = new SessionKey("t", "sealed");
        long epoch = PgStores.leasedSession(stores.get(0), key, 1, "owner");
        List<StoredEvent> all = new ArrayList<>(stores.get(0).readOwn(key, 1, 1));
        int sealers = STORES * SEALERS_PER_STORE;
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(sealers + 1);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                long head = all.size();
                List<StoredEvent> more = StoreFixtures.messages("sealed", head + 1, 20);
                stores.get(0).append(AppendRequest.of(key, head, epoch, more));
                all.addAll(more);
                long at = head + 20;
                List<StoredEvent> expected = List.copyOf(all);
                CyclicBarrier barrier = new CyclicBarrier(sealers + 1);
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < sealers; t++) {
                    PostgresStateStore store = stores.get(t % STORES);
                    long snapshotAt = at - t % 3; // seals of different ends from the same start: they must not overlap
                    futures.add(pool.submit(() -> {
                        barrier.await(60, TimeUnit.SECONDS);
                        store.saveSnapshot(key, RoundTripFixtures.snapshot(snapshotAt));
                        return null;
                    }));
                }
                futures.add(pool.submit(() -> { // a reader through the seals: sees every event, sealed or not
                    barrier.await(60, TimeUnit.SECONDS);
                    for (int i = 0; i < 5; i++) {
                        if (!stores.get(1).readOwn(key, 1, at).equals(expected)) {
                            problems.add("a read during the seals differed from what was appended");
                        }
                    }
                    return null;
                }));
                for (Future<?> f : futures) {
                    try {
                        f.get(120, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.ExecutionException e) {
                        problems.add("round " + round + ": " + e.getCause());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(problems).isEmpty();
        for (PostgresStateStore store : stores) {
            assertThat(store.readOwn(key, 1, all.size())).isEqualTo(all);
            assertThat(store.readOwnTranscriptEvents(key, 1, all.size()))
                    .isEqualTo(all.stream().filter(e -> e.event().touchesTranscript()).map(StoredEvent::event).toList());
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet rs = s.executeQuery("SELECT first_seq, last_seq FROM segments ORDER BY last_seq")) {
                List<long[]> segments = new ArrayList<>();
                while (rs.next()) {
                    segments.add(new long[] {rs.getLong(1), rs.getLong(2)});
                }
                assertThat(segments).as("one segment per round").hasSize(ROUNDS);
                for (int i = 0; i < segments.size(); i++) {
                    long first = i == 0 ? 1 : segments.get(i - 1)[1] + 1;
                    assertThat(segments.get(i)[0]).as("segment %d starts where the one before ended", i).isEqualTo(first);
                    assertThat(segments.get(i)[1]).as("segment %d ends at one of its round's snapshots", i)
                            .isBetween(1 + 20L * (i + 1) - 2, 1 + 20L * (i + 1));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE payload IS NULL), count(*) FROM events"
                    + " WHERE touches_transcript AND NOT EXISTS (SELECT 1 FROM segments g WHERE g.sid = events.sid"
                    + " AND events.seq BETWEEN g.first_seq AND g.last_seq)")) {
                rs.next();
                assertThat(rs.getLong(1)).as("sealed rows outside every segment").isZero();
            }
        }
        stores.forEach(PostgresStateStore::close);
    }
}
