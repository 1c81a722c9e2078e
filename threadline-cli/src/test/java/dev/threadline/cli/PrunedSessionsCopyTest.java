package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.export.ExportLines;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, items 2 and 6: {@code threadline sessions copy} takes pruned sessions (ADR 0045) as their base and
 * their events after it, a fork of a pruned session as its own events, from SQLite to PostgreSQL to Redis and back
 * to SQLite, and through an export file into PostgreSQL; journals and bases are equal at every hop and a rerun
 * writes nothing. Real servers on loopback.
 */
class PrunedSessionsCopyTest {
    private static final String TENANT = "acme";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private static String copy(String from, String to) {
        return run("sessions", "copy", "--from", from, "--to", to, "--tenant", TENANT);
    }

    private static String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true), args);
        assertThat(code).as("%s: %s%s", String.join(" ", args), out, err).isZero();
        return out.toString();
    }

    /** CopyFixture's 3 sessions and their forks, s0001 pruned; session "p" pruned, with a fork "p-f" after its base. */
    private static void write(String url) {
        CopyFixture.write(url, TENANT, 3);
        try (Threadline tl = Threadline.builder().store(url).leaseLinger(Duration.ZERO)
                .model(ScriptedModel.of(req -> ScriptedModel.text("ack " + req.messages().getLast().text()))).build()) {
            Session p = tl.tenant(TENANT).create("p", SessionConfig.DEFAULT);
            for (int i = 0; i < 4; i++) {
                p.submit("what is " + i + "+2");
            }
            tl.lifecycle().prune(TENANT, "p", PrunePolicy.keepLatest(1));
            p.fork(p.history().journal().getLast().seq(), "p-f").submit("on the fork");
            p.submit("after the fork");
            tl.lifecycle().prune(TENANT, "s0001", PrunePolicy.keepLatest(1));
        }
    }

    private static void assertEqual(String a, String b) {
        try (StateStore x = StateStores.open(a); StateStore y = StateStores.open(b)) {
            List<SessionSummary> xs = CopyFixture.all(x, TENANT);
            assertThat(CopyFixture.all(y, TENANT)).hasSize(xs.size());
            for (SessionSummary s : xs) {
                SessionKey k = SessionKey.of(s.info());
                assertThat(y.session(k)).as(k.toString()).contains(s.info());
                assertThat(y.historyBase(k)).as(k + " base").isEqualTo(x.historyBase(k));
                long head = x.head(k);
                assertThat(y.head(k)).as(k.toString()).isEqualTo(head);
                assertThat(lines(y.readOwn(k, 1, head))).as(k.toString()).isEqualTo(lines(x.readOwn(k, 1, head)));
            }
            assertThat(x.historyBase(new SessionKey(TENANT, "p"))).isPresent();
            assertThat(x.historyBase(new SessionKey(TENANT, "s0001"))).isPresent();
        }
    }

    private static List<String> lines(List<StoredEvent> events) {
        return events.stream().map(e -> ExportLines.of(e).toString()).toList();
    }

    @Test
    void prunedSessionsGoSqliteToPostgresqlToRedisToSqliteWithEqualBasesAndJournals() {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        write(sqlite);
        PgServer.shared().createDatabase("pruned_copy");
        String pg = PgServer.shared().url("pruned_copy");
        String back = "sqlite:" + dir.resolve("back.db");
        int sessions = CopyFixture.sessions(3) + 2;
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            assertThat(copy(sqlite, pg)).contains(": " + sessions + " new, 0 resumed, 0 already there;");
            assertEqual(sqlite, pg);
            copy(pg, redis.url());
            assertEqual(pg, redis.url());
            copy(redis.url(), back);
            assertEqual(sqlite, back);

            assertThat(copy(sqlite, back)).as("a rerun finds everything there and writes nothing")
                    .contains(": 0 new, 0 resumed, " + sessions + " already there; 0 events written");
        }
    }

    @Test
    void prunedSessionsGoThroughAnExportFileIntoPostgresqlWithEqualBasesAndJournals() {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        write(sqlite);
        String file = dir.resolve("acme.jsonl").toString();
        run("export", "--tenant", TENANT, "--store", sqlite, "--file", file);
        PgServer.shared().createDatabase("pruned_import");
        String pg = PgServer.shared().url("pruned_import");
        int sessions = CopyFixture.sessions(3) + 2;
        assertThat(run("import", "--store", pg, "--file", file)).contains(": " + sessions + " new, 0 resumed, 0 already there;");
        assertEqual(sqlite, pg);
        assertThat(run("import", "--store", pg, "--file", file)).as("a rerun writes nothing")
                .contains(": 0 new, 0 resumed, " + sessions + " already there; 0 events written");
    }
}
