package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.crypto.PayloadSealer;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Resealing.Resealed;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.WrappedDataKey;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.StoreFixtures;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Turning keys over on PostgreSQL (ADR 0049, {@code threadline keys rotate-data}): a plain store's rows sealed after
 * the fact into migration 11's sealed columns, every read the same, another tenant untouched, and after the store's
 * scrub no byte of the canary in the data directory or a {@code pg_dump}; a rotation followed by a re-seal moving every
 * payload to the new data key, a second pass finding nothing; refusals. A server of its own with
 * {@code wal_recycle=off} and {@code autovacuum=off} (as {@link PostgresErasureTest}), one database per test.
 */
class PostgresResealTest {
    private static final String CANARY = "canary-pg-reseal-4e7a19";
    private static final String OTHER = "canary-pg-globex-d03b";
    private static final List<String> SESSIONS = List.of("ada-0", "ada-1", "ada-2", "cmd");
    private static final KeyProvider KEYS = KeyProviders.environment(Map.of("THREADLINE_KEK", PostgresEncryptedStateStoreTest.KEK));
    private static PgServer server;

    @BeforeAll
    static void start() {
        server = PgServer.create(List.of("wal_recycle=off", "autovacuum=off"));
        server.createDatabase("after");
        server.createDatabase("rotated");
        server.createDatabase("refused");
        server.createDatabase("raced");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static PostgresStateStore open(String db, KeyProvider keys) {
        return PostgresStateStore.open(server.url(db), PostgresStateStore.Options.defaults().withKeys(keys));
    }

    /** Everything acme's sessions read as, through the store: journals, snapshots, bases, command, variables. */
    private static String reads(StateStore store) {
        StringBuilder out = new StringBuilder();
        for (String id : SESSIONS) {
            SessionKey k = new SessionKey("acme", id);
            out.append(store.readOwn(k, 0, Long.MAX_VALUE)).append(store.latestSnapshot(k, Long.MAX_VALUE))
                    .append(store.historyBase(k)).append(store.command(k, "c-1"));
        }
        out.append(store.variables(VariableScope.USER, ScopedWrite.userKey("acme", "ada")))
                .append(store.variables(VariableScope.APP, ScopedWrite.appKey("acme")));
        return out.toString();
    }

    @Test
    void aPlainStoresRowsSealedAfterTheFactReadTheSameAndAfterTheScrubNoCanaryIsLeft() throws Exception {
        PostgresEncryptionTest.fillEverything(server, "after", CANARY, null);
        String before;
        try (PostgresStateStore store = open("after", null)) {
            SessionInfo info = StoreFixtures.root("g", "globex", "u");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("g", 2, OTHER)));
            before = reads(store);
        }
        assertThat(count("after", "SELECT count(*) FROM journal_text t JOIN sessions s ON s.sid = t.sid WHERE s.tenant = 'acme'"))
                .as("the plain store indexed acme's messages").isPositive();

        List<Resealed> progress = new ArrayList<>();
        try (PostgresStateStore store = open("after", KEYS)) {
            Resealed done = store.reseal("acme", 5, progress::add);
            assertThat(done.dataKey()).isEqualTo(1);
            assertThat(done.resealed()).isPositive().isEqualTo(done.examined());
            assertThat(progress).hasSizeGreaterThan(3).last().isEqualTo(done);
            assertThat(reads(store)).isEqualTo(before);
            assertThat(store.reseal("acme", 5, r -> { }).examined()).as("nothing left").isZero();
            assertThat(notUnder("after", 1)).as("acme's payloads not sealed under data key 1").isZero();
            assertThat(sealedUnder("after", 1)).isEqualTo(done.resealed());
            assertThat(count("after", "SELECT count(*) FROM events e JOIN sessions s ON s.sid = e.sid WHERE s.tenant = 'globex'"
                    + " AND e.payload IS NOT NULL AND e.payload_sealed IS NULL")).as("another tenant's rows as they were").isEqualTo(2);
            assertThat(count("after", "SELECT count(*) FROM journal_text t JOIN sessions s ON s.sid = t.sid WHERE s.tenant = 'acme'"))
                    .isZero();
            assertThat(PgCanaryScan.pgDump(server, "after")).as("a dump holds live rows only").doesNotContain(CANARY).contains(OTHER);
            // the rows' old versions (dead tuples, their TOAST chunks) and the write-ahead log still hold the plaintext:
            // the scrub rewrites the tables and retires the WAL segments
            assertThat(store.scrub()).contains("tables rewritten").doesNotContain("NOT");
            assertThat(reads(store)).isEqualTo(before);
        }
        assertThat(PgCanaryScan.inDataDirectory(server, CANARY)).as("no file of the data directory holds acme's canary").isFalse();
        assertThat(PgCanaryScan.inDataDirectory(server, OTHER)).as("the plain tenant's still is, so the scan can find it").isTrue();
        assertThat(PgCanaryScan.pgDump(server, "after")).doesNotContain(CANARY).contains(OTHER);
    }

    @Test
    void aRotationThenAResealMovesEveryPayloadToTheNewDataKeyAndASecondPassFindsNothing() throws Exception {
        PostgresEncryptionTest.fillEverything(server, "rotated", CANARY + "-sealed", KEYS);
        try (PostgresStateStore store = open("rotated", KEYS)) {
            String before = reads(store);
            long underOne = sealedUnder("rotated", 1);
            assertThat(underOne).isPositive();
            assertThat(notUnder("rotated", 1)).isZero();
            assertThat(store.rotateDataKey("acme")).isEqualTo(2);
            List<Resealed> progress = new ArrayList<>();
            Resealed done = store.reseal("acme", 50, progress::add);
            assertThat(done).isEqualTo(new Resealed("acme", 2, underOne, underOne));
            assertThat(progress).last().isEqualTo(done);
            assertThat(sealedUnder("rotated", 1)).isZero();
            assertThat(sealedUnder("rotated", 2)).isEqualTo(underOne);
            assertThat(notUnder("rotated", 2)).isZero();
            assertThat(reads(store)).isEqualTo(before);
            assertThat(store.reseal("acme", 50, r -> { })).isEqualTo(new Resealed("acme", 2, 0, 0));
            assertThat(store.dataKeys("acme")).extracting(WrappedDataKey::number).containsExactly(1, 2);
        }
        try (PostgresStateStore store = open("rotated", KEYS)) {
            assertThat(store.command(new SessionKey("acme", "cmd"), "c-1").orElseThrow().result()).contains(CANARY + "-sealed");
        }
    }

    @Test
    void withoutKeysOrWithABatchBelowOneAResealIsRefusedAndNothingChanges() throws Exception {
        try (PostgresStateStore store = open("refused", null)) {
            SessionInfo info = StoreFixtures.root("r", "acme", "u");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("r", 2, "plain words")));
            assertThat(store.seals()).isFalse();
            assertThatThrownBy(() -> store.reseal("acme", 10, r -> { })).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("not opened with keys").hasMessageContaining("?keys=");
        }
        try (PostgresStateStore store = open("refused", KEYS)) {
            assertThatThrownBy(() -> store.reseal("acme", 0, r -> { })).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("batch");
        }
        assertThat(count("refused", "SELECT count(*) FROM events WHERE payload_sealed IS NOT NULL")).isZero();
        assertThat(count("refused", "SELECT count(*) FROM data_keys")).isZero();
    }

    /**
     * A row another process changes while a batch holds it: the other transaction updates the variable's row and keeps
     * it locked, so the re-seal's compare-and-set waits for it (seen in {@code pg_locks}, no sleep); once it commits,
     * the compare-and-set finds another value and leaves the row as the other process wrote it. A second pass seals it.
     */
    @Test
    void aPayloadChangedWhileItsBatchRunsKeepsWhatTheOtherProcessWroteUntilTheNextPass() throws Exception {
        try (Threadline tl = Threadline.builder().store(open("raced", null)).model(ScriptedModel.demo()).build()) {
            tl.tenant("solo").create(new NewSession("s", "u", SessionConfig.DEFAULT, Map.of(), null)).edit("test", "set",
                    List.of(new Edit.SetVariable(VariableScope.APP, "motto", TextNode.valueOf("before"))));
        }
        try (PostgresStateStore store = open("raced", KEYS); Connection other = server.connect("raced");
             Statement s = other.createStatement(); ExecutorService pool = Executors.newSingleThreadExecutor()) {
            other.setAutoCommit(false);
            assertThat(s.executeUpdate("UPDATE variables SET value = '\"meanwhile\"' WHERE scope_key = 'solo' AND name = 'motto'"))
                    .isOne();
            Future<Resealed> running = pool.submit(() -> store.reseal("solo", 100, r -> { }));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (count("raced", "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted"
                    + " AND a.query LIKE 'UPDATE variables%'") == 0) {
                assertThat(running.isDone()).as("the re-seal waits for the locked row").isFalse();
                assertThat(System.nanoTime()).as("the re-seal reached the locked row in time").isLessThan(deadline);
            }
            other.commit();
            Resealed done = running.get(60, TimeUnit.SECONDS);
            assertThat(done.resealed()).as("all but the changed variable").isEqualTo(done.examined() - 1);
            assertThat(count("raced", "SELECT count(*) FROM variables WHERE value = '\"meanwhile\"' AND value_sealed IS NULL"))
                    .as("the other process's value, as it wrote it").isOne();
            assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("solo"))).containsEntry("motto", TextNode.valueOf("meanwhile"));
            assertThat(store.reseal("solo", 100, r -> { })).isEqualTo(new Resealed("solo", 1, 1, 1));
            assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("solo"))).containsEntry("motto", TextNode.valueOf("meanwhile"));
        }
    }

    /** Acme's payload values of every column sealed under data key {@code number}. */
    private static long sealedUnder(String db, int number) throws Exception {
        String hex = HexFormat.of().formatHex(PayloadSealer.prefix(number));
        long n = 0;
        for (String[] t : SealedColumns.PAYLOADS) {
            n += count(db, "SELECT count(*) FROM " + t[0] + " WHERE substring(" + t[1] + "_sealed from 1 for 5) = '\\x" + hex
                    + "'::bytea" + acme(t[0]));
        }
        return n;
    }

    /** Acme's payload values of every column in the text column or sealed under another key than {@code number}. */
    private static long notUnder(String db, int number) throws Exception {
        String hex = HexFormat.of().formatHex(PayloadSealer.prefix(number));
        long n = 0;
        for (String[] t : SealedColumns.PAYLOADS) {
            n += count(db, "SELECT count(*) FROM " + t[0] + " WHERE (" + t[1] + " IS NOT NULL OR substring(" + t[1]
                    + "_sealed from 1 for 5) <> '\\x" + hex + "'::bytea)" + acme(t[0]));
        }
        return n;
    }

    private static String acme(String table) {
        return switch (table) {
            case "variables" -> " AND (scope_key = 'acme' OR scope_key LIKE 'acme/%')";
            case "events", "segments", "history_bases" -> " AND sid IN (SELECT sid FROM sessions WHERE tenant = 'acme')";
            default -> " AND tenant = 'acme'";
        };
    }

    private static long count(String db, String sql) throws Exception {
        try (Connection c = server.connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
