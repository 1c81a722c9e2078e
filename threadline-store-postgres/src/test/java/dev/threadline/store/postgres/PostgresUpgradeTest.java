package dev.threadline.store.postgres;

import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.harness.servers.PgServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Schema migrations on stored fixtures: a version 1 database (its DDL frozen in
 * {@code fixtures/schema-v1.sql}) with rows in it is upgraded to the current version when a store
 * opens it, and reads, lists (the metadata filled in from the rows), appends and leases as a new one;
 * a version 3 database ({@code fixtures/schema-v3.sql}) with a branch, UUID and caller command ids,
 * snapshots, command records and record version 2 rows moves to the lean journal of version 4 with
 * every event as it was, and seals on its next snapshot;
 * a database of a newer version is refused; processes creating one schema at once all succeed.
 */
class PostgresUpgradeTest {

    private static void run(String schema, String sql) throws SQLException {
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            s.execute("SET search_path TO " + schema);
            s.execute(sql);
        }
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = PostgresUpgradeTest.class.getResourceAsStream("/fixtures/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void insertV1Session(Connection c, SessionInfo info, List<StoredEvent> events) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq,"
                + " info, v, head_seq, created_at, updated_at) VALUES (?, ?, ?, NULL, 0, ?, 2, ?, 1, ?)")) {
            ps.setString(1, info.tenant());
            ps.setString(2, info.id());
            ps.setString(3, info.userId());
            ps.setString(4, RecordCodec.encodeSession(info));
            ps.setLong(5, events.size());
            ps.setLong(6, 1_000 + events.size());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (tenant, session_id, seq, step, time, command_id,"
                + " source, type, touches_transcript, payload, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 2)")) {
            for (StoredEvent e : events) {
                ps.setString(1, info.tenant());
                ps.setString(2, info.id());
                ps.setLong(3, e.seq());
                ps.setLong(4, e.step());
                ps.setLong(5, EpochNanos.of(e.time()));
                ps.setString(6, e.commandId());
                ps.setString(7, e.source().wireName());
                ps.setString(8, e.event().type());
                ps.setBoolean(9, e.event().touchesTranscript());
                ps.setString(10, RecordCodec.encodeEvent(e.event()));
                ps.executeUpdate();
            }
        }
    }

    private static List<StoredEvent> journal(SessionInfo info, int length) {
        List<StoredEvent> out = new ArrayList<>();
        out.add(StoreFixtures.first(info));
        out.addAll(StoreFixtures.messages(info.id(), 2, length - 1));
        return out;
    }

    @Test
    void aVersionOneDatabaseWithRowsIsUpgradedAndReadsAsANewOne() throws Exception {
        String schema = PgStores.freshSchema("v1");
        String url = PgStores.url();
        run(schema, fixture("schema-v1.sql"));
        SessionInfo tagged = new SessionInfo("tagged", "t", "ann", SessionConfig.DEFAULT, Map.of("project", "x"),
                StoreFixtures.T0, null, null, 0);
        SessionInfo plain = StoreFixtures.root("plain", "t", "bob");
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            insertV1Session(c, tagged, journal(tagged, 4));
            insertV1Session(c, plain, journal(plain, 2));
        }

        try (PostgresStateStore store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema))) {
            SessionKey t = SessionKey.of(tagged);
            assertThat(store.session(t)).contains(tagged);
            assertThat(store.readOwn(t, 1, 10)).isEqualTo(journal(tagged, 4));
            assertThat(store.list(new SessionQuery("t", null, Map.of("project", "x"), 10, null)).items())
                    .singleElement().satisfies(s -> assertThat(s.info().id()).isEqualTo("tagged"));
            assertThat(store.list(SessionQuery.tenant("t")).items()).extracting(s -> s.info().id())
                    .containsExactly("tagged", "plain");
            long epoch = ((LeaseResult.Acquired) store.acquire(t, "w", Duration.ofMinutes(1), null)).lease().epoch();
            assertThat(store.append(AppendRequest.of(t, 4, epoch, StoreFixtures.messages("tagged", 5, 1)))).isEqualTo(5);
            // migration 8 indexed the messages written before it (seq 2..4), the step after it its own (seq 5)
            assertThat(store.search(List.of(new dev.threadline.core.store.SearchRange(t, 1, 5)), "question answer", 10))
                    .extracting(dev.threadline.core.model.SearchHit::seq).containsExactlyInAnyOrder(2L, 3L, 4L, 5L);
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version ORDER BY version")) {
                List<Integer> versions = new ArrayList<>();
                while (rs.next()) {
                    versions.add(rs.getInt(1));
                }
                assertThat(versions).isEqualTo(java.util.stream.IntStream.rangeClosed(1, Migrations.latest()).boxed().toList());
                assertThat(versions).hasSize(11);
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE recent = updated_at / "
                    + Migrations.RECENT_NANOS + ") FROM heads")) {
                rs.next();
                assertThat(rs.getInt(2)).as("rows whose recency period version 6 computed").isEqualTo(rs.getInt(1)).isEqualTo(2);
            }
        }
    }

    /** Inserts a session row and its events as version 3 wrote them (record version {@code v}). */
    private static void insertV3Session(Connection c, SessionInfo info, long head, List<StoredEvent> events, int v)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO sessions (tenant, id, user_id, parent_id, parent_seq,"
                + " info, v, head_seq, created_at, updated_at, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?::jsonb)")) {
            ps.setString(1, info.tenant());
            ps.setString(2, info.id());
            ps.setString(3, info.userId());
            ps.setString(4, info.parentId());
            ps.setLong(5, info.parentSeq());
            ps.setString(6, RecordCodec.encodeSession(info));
            ps.setInt(7, v);
            ps.setLong(8, head);
            ps.setLong(9, 1_000 + head);
            ps.setString(10, dev.threadline.core.json.Json.write(info.metadata()));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (tenant, session_id, seq, step, time, command_id,"
                + " source, type, touches_transcript, payload, v) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (StoredEvent e : events) {
                ps.setString(1, info.tenant());
                ps.setString(2, info.id());
                ps.setLong(3, e.seq());
                ps.setLong(4, e.step());
                ps.setLong(5, EpochNanos.of(e.time()));
                ps.setString(6, e.commandId());
                ps.setString(7, e.source().wireName());
                ps.setString(8, e.event().type());
                ps.setBoolean(9, e.event().touchesTranscript());
                ps.setString(10, RecordCodec.encodeEvent(e.event()));
                ps.setInt(11, v);
                ps.executeUpdate();
            }
        }
    }

    /** {@code events} with their command ids replaced: UUIDs (canonical and upper case) and a caller's text in turn. */
    private static List<StoredEvent> withCommandIds(List<StoredEvent> events) {
        List<StoredEvent> out = new ArrayList<>();
        for (StoredEvent e : events) {
            String id = switch ((int) (e.seq() % 3)) {
                case 0 -> java.util.UUID.nameUUIDFromBytes(("c" + e.seq()).getBytes(StandardCharsets.UTF_8)).toString();
                case 1 -> java.util.UUID.nameUUIDFromBytes(("u" + e.seq()).getBytes(StandardCharsets.UTF_8)).toString().toUpperCase();
                default -> e.commandId();
            };
            out.add(new StoredEvent(e.sessionId(), e.seq(), e.step(), e.time(), id, e.source(), e.event()));
        }
        return out;
    }

    @Test
    void aVersionThreeDatabaseMovesToTheLeanJournalWithEveryEventAsItWas() throws Exception {
        String schema = PgStores.freshSchema("v3");
        String url = PgStores.url();
        run(schema, fixture("schema-v3.sql"));
        SessionInfo root = StoreFixtures.root("root", "t", "ann");
        List<StoredEvent> rootEvents = withCommandIds(journal(root, 40));
        SessionInfo branch = StoreFixtures.branch(root, "branch", 20);
        List<StoredEvent> branchEvents = new ArrayList<>(List.of(StoreFixtures.first(branch)));
        branchEvents.addAll(StoreFixtures.messages("branch", 22, 5));
        SessionInfo other = StoreFixtures.root("root", "t2", "bob"); // the same id in another tenant
        List<StoredEvent> otherEvents = journal(other, 3);
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            insertV3Session(c, root, 40, rootEvents, 3);
            insertV3Session(c, branch, 26, branchEvents, 3);
            insertV3Session(c, other, 3, otherEvents, 2);
            s.execute("INSERT INTO snapshots (tenant, session_id, seq, payload, v) VALUES ('t', 'root', 10, '"
                    + RecordCodec.encodeSnapshot(dev.threadline.store.tck.RoundTripFixtures.snapshot(10)).replace("'", "''") + "', 3)");
            s.execute("INSERT INTO commands (tenant, session_id, command_id, fingerprint, seq, result)"
                    + " VALUES ('t', 'root', 'cmd-1', 'fp', 40, NULL)");
        }

        try (PostgresStateStore store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema))) {
            SessionKey r = SessionKey.of(root);
            SessionKey b = SessionKey.of(branch);
            SessionKey o = SessionKey.of(other);
            assertThat(store.readOwn(r, 1, 100)).isEqualTo(rootEvents);
            assertThat(store.readOwn(b, 1, 100)).isEqualTo(branchEvents);
            assertThat(store.readOwn(o, 1, 100)).isEqualTo(otherEvents);
            assertThat(dev.threadline.core.internal.store.Lineage.read(store, b, 1, 26))
                    .isEqualTo(java.util.stream.Stream.concat(rootEvents.subList(0, 20).stream(), branchEvents.stream()).toList());
            assertThat(store.head(r)).isEqualTo(40);
            assertThat(store.latestSnapshot(r, 40)).contains(dev.threadline.store.tck.RoundTripFixtures.snapshot(10));
            assertThat(store.command(r, "cmd-1")).isPresent();

            long epoch = ((LeaseResult.Acquired) store.acquire(r, "w", Duration.ofMinutes(1), null)).lease().epoch();
            List<StoredEvent> more = StoreFixtures.messages("root", 41, 3);
            assertThat(store.append(AppendRequest.of(r, 40, epoch, more))).isEqualTo(43);
            store.saveSnapshot(r, dev.threadline.store.tck.RoundTripFixtures.snapshot(43));
            List<StoredEvent> all = new ArrayList<>(rootEvents);
            all.addAll(more);
            assertThat(store.readOwn(r, 1, 100)).isEqualTo(all);
            assertThat(store.readOwnTranscriptEvents(r, 1, 100))
                    .isEqualTo(all.stream().filter(e -> e.event().touchesTranscript()).map(StoredEvent::event).toList());
            store.delete(b);
            assertThat(store.readOwn(r, 1, 100)).isEqualTo(all);
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet rs = s.executeQuery("SELECT count(DISTINCT sid), count(*) FROM sessions")) {
                rs.next();
                assertThat(rs.getInt(1)).as("distinct session numbers").isEqualTo(2).isEqualTo(rs.getInt(2));
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FILTER (WHERE command_id IS NOT NULL),"
                    + " count(*) FILTER (WHERE command_text IS NOT NULL) FROM events e JOIN sessions s USING (sid)"
                    + " WHERE s.tenant = 't' AND s.id = 'root' AND e.seq <= 40")) {
                rs.next();
                assertThat(rs.getInt(1)).as("canonical UUIDs packed").isEqualTo(13);
                assertThat(rs.getInt(2)).as("other ids as text").isEqualTo(27);
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM segments")) {
                rs.next();
                assertThat(rs.getLong(1)).as("nothing sealed: the rows keep their payloads (ADR 0031)").isZero();
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = '"
                    + schema + "' AND table_name = 'events_v3'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the old table is gone").isZero();
            }
        }
    }

    @Test
    void aDatabaseOfANewerVersionIsRefusedAndLeftAlone() throws Exception {
        String schema = PgStores.freshSchema("newer");
        String url = PgStores.url();
        PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema)).close();
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + schema + ".schema_version (version, description) VALUES (99, 'from the future')");
        }

        assertThatThrownBy(() -> PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema)))
                .isInstanceOf(StorageException.class).hasMessageContaining("schema version 99")
                .hasMessageContaining("newer Threadline");
    }

    /**
     * Regression (found when the test below failed once with "duplicate key value violates unique
     * constraint pg_namespace_nspname_index"): {@code CREATE SCHEMA IF NOT EXISTS} is no guard against
     * another transaction creating the schema at the same moment. Made certain here: another
     * connection creates the schema and holds its transaction open; the store's open waits on the
     * catalog's unique index (seen in pg_stat_activity, no sleep); the other commits; the open succeeds.
     */
    @Test
    void schemaCreatedByAnotherConnectionAtTheSameMomentIsNoErrorWhenOpening() throws Exception {
        String schema = PgStores.freshSchema("create_race");
        String url = PgStores.url();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection other = PgServer.shared().connect(PgStores.DB);
             Connection watch = PgServer.shared().connect(PgStores.DB)) {
            other.setAutoCommit(false);
            try (Statement s = other.createStatement()) {
                s.execute("CREATE SCHEMA " + schema);
            }
            Future<PostgresStateStore> opening = pool.submit(() -> PostgresStateStore.open(url,
                    PostgresStateStore.Options.defaults().withSchema(schema)));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            try (PreparedStatement ps = watch.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND query LIKE 'CREATE SCHEMA IF NOT EXISTS %'")) {
                while (true) {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getInt(1) > 0) {
                            break;
                        }
                    }
                    assertThat(opening).as("the open waits on the other's schema").isNotDone();
                    assertThat(System.nanoTime()).as("the open waits on the other's schema within 2 minutes").isLessThan(deadline);
                }
            }
            other.commit();
            try (PostgresStateStore store = opening.get(120, TimeUnit.SECONDS)) {
                assertThat(store.list(SessionQuery.tenant("t")).items()).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void storesOpeningAnEmptySchemaAtOnceAllSucceedAndApplyEachVersionOnce() throws Exception {
        String schema = PgStores.freshSchema("racing_open");
        String url = PgStores.url();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<PostgresStateStore>> opened = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                opened.add(pool.submit(() -> PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema))));
            }
            for (Future<PostgresStateStore> f : opened) {
                f.get(120, TimeUnit.SECONDS).close();
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), max(version) FROM " + schema + ".schema_version")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(Migrations.latest());
            assertThat(rs.getInt(2)).isEqualTo(Migrations.latest());
        }
    }
}
