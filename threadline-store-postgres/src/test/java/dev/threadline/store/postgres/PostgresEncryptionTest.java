package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.crypto.KeyProvider;
import dev.threadline.core.crypto.KeyProviders;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.RoundTripFixtures;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Encryption at rest on PostgreSQL (ADR 0049, step 4), at rest: a canary written everywhere a payload goes (messages
 * through the group-committed step, the create and the transaction of a step with shared writes; user, app and
 * session variables; a pruned history's base; a command result; an interrupt reason; snapshots) is in neither the
 * server's data directory (tables and write-ahead log, after a checkpoint) nor a {@code pg_dump} of an encrypted
 * store's database, while another canary written the same way by a plain store beside it is in both, so the scan
 * can fail. Every payload row of the encrypted store has its text column NULL and a sealed value in its {@code bytea}
 * column, 33 bytes longer than the JSON; the full-text index holds nothing. A server of its own, so that no other
 * test's rows are in its files.
 */
class PostgresEncryptionTest {
    private static final String SEALED = "canary-pg-sealed-5b1f0e";
    private static final String PLAIN = "canary-pg-plain-93ad42";
    private static PgServer server;

    @BeforeAll
    static void start() {
        server = PgServer.create();
        server.createDatabase("plain");
        server.createDatabase("sealed");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theCanaryOfAnEncryptedStoreIsInNeitherTheDataDirectoryNorADumpWhileAPlainStoresIsInBoth() throws Exception {
        fillEverything(server, "plain", PLAIN, null);
        fillEverything(server, "sealed", SEALED, KeyProviders.environment(Map.of("THREADLINE_KEK", PostgresEncryptedStateStoreTest.KEK)));
        try (Connection c = server.connect("sealed"); Statement s = c.createStatement()) {
            s.execute("CHECKPOINT"); // the shared buffers written out: the rows are in the table files, not only in the WAL
        }

        assertThat(PgCanaryScan.inDataDirectory(server, PLAIN)).as("the plain store's canary is on disk, so the scan can find it").isTrue();
        assertThat(PgCanaryScan.pgDump(server, "plain")).contains(PLAIN);
        assertThat(PgCanaryScan.inDataDirectory(server, SEALED)).as("no file of the data directory holds the sealed canary").isFalse();
        assertThat(PgCanaryScan.pgDump(server, "sealed")).doesNotContain(SEALED).contains("payload_sealed");

        try (Connection c = server.connect("sealed"); Statement s = c.createStatement()) {
            for (String[] t : SealedColumns.PAYLOADS) {
                if (t[0].equals("segments")) {
                    continue; // written only by versions 4 to 6 of the store (ADR 0031): none here
                }
                String sealed = t[1] + "_sealed";
                try (ResultSet rs = s.executeQuery("SELECT count(*), count(" + t[1] + "), count(CASE WHEN get_byte(" + sealed
                        + ", 0) = 241 THEN 1 END) FROM " + t[0] + " WHERE " + t[1] + " IS NOT NULL OR " + sealed + " IS NOT NULL")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("payload rows of " + t[0]).isPositive();
                    assertThat(rs.getInt(2)).as("rows of " + t[0] + " with a text payload").isZero();
                    assertThat(rs.getInt(3)).as("rows of " + t[0] + " sealed (0xF1 first)").isEqualTo(rs.getInt(1));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM journal_text")) {
                rs.next();
                assertThat(rs.getInt(1)).as("no plaintext in the text index").isZero();
            }
        }
    }

    @Test
    void aSealedEventIs33BytesLongerThanItsJsonAndAPlainOneIsItsJsonAsBefore() throws Exception {
        SessionInfo info = StoreFixtures.root("size", "acme", "u");
        var events = List.of(StoreFixtures.first(info), StoreFixtures.user("size", 2, "how long is this"),
                StoreFixtures.assistant("size", 3, "exactly as long as before, and 33 bytes more sealed"));
        KeyProvider keys = KeyProviders.environment(Map.of("THREADLINE_KEK", PostgresEncryptedStateStoreTest.KEK));
        for (boolean sealed : new boolean[] {false, true}) {
            String db = sealed ? "sealed" : "plain";
            PostgresStateStore.Options options = PostgresStateStore.Options.defaults().withSchema("size").withKeys(sealed ? keys : null);
            try (PostgresStateStore store = PostgresStateStore.open(server.url(db), options)) {
                store.create(info, events);
            }
            try (Connection c = server.connect(db); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT seq, octet_length(payload), octet_length(payload_sealed) FROM size.events ORDER BY seq")) {
                for (var e : events) {
                    assertThat(rs.next()).isTrue();
                    int json = RecordCodec.encodeEvent(e.event()).getBytes(StandardCharsets.UTF_8).length;
                    if (sealed) {
                        assertThat(rs.getObject(2)).isNull();
                        assertThat(rs.getInt(3)).as("seq %d", e.seq()).isEqualTo(json + 33);
                    } else {
                        assertThat(rs.getInt(2)).as("seq %d", e.seq()).isEqualTo(json);
                        assertThat(rs.getObject(3)).isNull();
                    }
                }
            }
        }
    }

    /**
     * Writes the canary into messages (snapshots every 4 events), user, app and session variables, a pruned history's
     * base, a command result, an interrupt reason and a snapshot, in database {@code db} of {@code server}; and reads it
     * all back. Tenant acme; sessions ada-0 to ada-2 (ada-0 pruned) and cmd (command c-1, an interrupt, a snapshot).
     */
    static void fillEverything(PgServer server, String db, String canary, KeyProvider keys) {
        PostgresStateStore store = PostgresStateStore.open(server.url(db), PostgresStateStore.Options.defaults().withKeys(keys));
        try (Threadline tl = Threadline.builder().store(store).model(ScriptedModel.demo()).snapshotEvery(4).build()) {
            Tenant acme = tl.tenant("acme");
            for (int i = 0; i < 3; i++) {
                Session s = acme.create(new NewSession("ada-" + i, "ada", SessionConfig.DEFAULT, Map.of(), null));
                for (int t = 0; t < 12; t++) {
                    s.submit("turn " + t + " says " + canary + " " + "x".repeat(200 * t)); // the longer ones TOASTed
                }
                s.edit("test", "remember", List.of(new Edit.SetVariable(VariableScope.USER, "fact", TextNode.valueOf(canary)),
                        new Edit.SetVariable(VariableScope.APP, "motto", TextNode.valueOf(canary)),
                        new Edit.SetVariable(VariableScope.SESSION, "own", TextNode.valueOf(canary))));
            }
            assertThat(tl.lifecycle().prune("acme", "ada-0", PrunePolicy.keepLatest(2)).pruned()).isTrue();
            assertThat(acme.open("ada-1").state().messages().toString()).contains(canary);
            assertThat(acme.open("ada-0").state().messages().toString()).contains(canary);

            SessionKey k = new SessionKey("acme", "cmd");
            SessionInfo info = StoreFixtures.root("cmd", "acme", "ada");
            store.create(info, List.of(StoreFixtures.first(info), StoreFixtures.user("cmd", 2, "asks " + canary)));
            Lease lease = ((LeaseResult.Acquired) store.acquire(k, "me", Duration.ofSeconds(30), null)).lease();
            store.append(new AppendRequest(k, 2, lease.epoch(), List.of(StoreFixtures.assistant("cmd", 3, "ok")), List.of(),
                    new CommandRecord(k, "c-1", "fp", 3, "{\"answer\": \"" + canary + "\"}")));
            assertThat(store.requestInterrupt(k, lease.epoch(), "stop: " + canary)).isTrue();
            store.saveSnapshot(k, RoundTripFixtures.snapshot(3));
            assertThat(store.command(k, "c-1").orElseThrow().result()).contains(canary);
            assertThat(store.latestSnapshot(k, 3)).isPresent();
            assertThat(store.search(List.of(new SearchRange(k, 1, 3)), canary, 5)).isNotEmpty();
        }
    }
}
