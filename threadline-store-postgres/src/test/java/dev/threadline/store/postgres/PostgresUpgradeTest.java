package dev.threadline.store.postgres;

import dev.threadline.core.internal.store.EpochNanos;
import dev.threadline.store.tck.servers.PgServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
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
        }
        try (Connection c = PgServer.shared().connect(PgStores.DB); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version ORDER BY version")) {
                List<Integer> versions = new ArrayList<>();
                while (rs.next()) {
                    versions.add(rs.getInt(1));
                }
                assertThat(versions).containsExactly(1, 2, 3);
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
