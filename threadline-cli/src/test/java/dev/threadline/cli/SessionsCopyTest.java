package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, "moving between stores": {@code threadline sessions copy} takes sessions with their forks,
 * variables and command records from SQLite to PostgreSQL to Redis and back to SQLite, and the journals
 * are equal at every hop; a copy killed with SIGKILL half-way (a child JVM) and run again ends equal with
 * nothing duplicated; bad input is one line and a non-zero exit. Real servers on loopback (PgServer,
 * RedisProcess: without them installed the test fails saying how to get them).
 */
class SessionsCopyTest {
    private static final String TENANT = "acme";
    /**
     * Sessions (before forks) of the round trip: 100 by default (10 to 50 s on two shared cores, most of it
     * writing the fixture); the acceptance's thousand (1,446 sessions with the forks) with
     * {@code -Dthreadline.copyTest.sessions=1000}: 40 s on an idle two-core machine, minutes on a busy one.
     */
    private static final int ROUND_TRIP = Integer.getInteger("threadline.copyTest.sessions", 100);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static Run copy(String from, String to) {
        Run r = run("sessions", "copy", "--from", from, "--to", to, "--tenant", TENANT);
        assertThat(r.code()).as("copy %s -> %s: %s%s", from, to, r.out(), r.err()).isZero();
        return r;
    }

    @Test
    void sqliteToPostgresqlToRedisToSqliteKeepsEveryJournalEqual() {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, ROUND_TRIP);
        PgServer.shared().createDatabase("copy_round_trip");
        String pg = PgServer.shared().url("copy_round_trip");
        String back = "sqlite:" + dir.resolve("back.db");
        int sessions = CopyFixture.sessions(ROUND_TRIP);
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            Run first = copy(sqlite, pg);
            assertThat(first.out()).startsWith("Copied " + sessions + " session(s) of tenant acme from " + sqlite + " to ")
                    .contains(": " + sessions + " new, 0 resumed, 0 already there;")
                    .contains("Compared " + sessions + " journal(s) in both stores: equal");
            CopyFixture.assertEqual(sqlite, pg, TENANT, ROUND_TRIP);

            copy(pg, redis.url());
            CopyFixture.assertEqual(pg, redis.url(), TENANT, ROUND_TRIP);

            copy(redis.url(), back);
            CopyFixture.assertEqual(sqlite, back, TENANT, ROUND_TRIP);

            Run again = copy(sqlite, back);
            assertThat(again.out()).as("a rerun finds everything there and writes nothing")
                    .contains(": 0 new, 0 resumed, " + sessions + " already there; 0 events written");
        }
    }

    @Test
    void aCopyKilledHalfWayAndRunAgainEndsEqualWithNothingDuplicated() {
        int n = 120;
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, n);
        PgServer.shared().createDatabase("copy_killed");
        String pg = PgServer.shared().url("copy_killed");
        int sessions = CopyFixture.sessions(n);

        try (ChildProcess p = ChildProcess.of(Main.class).name("copy").jvmOptions("--enable-native-access=ALL-UNNAMED")
                .args("sessions", "copy", "--from", sqlite, "--to", pg, "--tenant", TENANT, "--progress")
                .stderr(dir.resolve("copy.err")).start()) {
            p.awaitLine(0, "the 40th session copied", line -> line.startsWith("copied s0039"), Duration.ofSeconds(120));
            p.kill(); // SIGKILL: no shutdown hook, no finally block runs
        }
        int there;
        try (StateStore dest = StateStores.open(pg)) {
            there = CopyFixture.all(dest, TENANT).size();
        }
        assertThat(there).as("the kill came half-way").isGreaterThanOrEqualTo(40).isLessThan(sessions);

        Run rerun = copy(sqlite, pg);

        assertThat(rerun.out()).contains("Copied " + sessions + " session(s)").contains("Compared " + sessions + " journal(s) in both stores: equal");
        CopyFixture.assertEqual(sqlite, pg, TENANT, n);
        try (StateStore dest = StateStores.open(pg)) {
            for (var s : CopyFixture.all(dest, TENANT)) {
                SessionKey k = SessionKey.of(s.info());
                long base = s.info().parentSeq();
                assertThat(dest.readOwn(k, 1, s.headSeq())).as("%s: each seq once, no gap", k)
                        .extracting(e -> e.seq()).containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(base + 1, s.headSeq()).boxed().toList());
            }
        }
    }

    @Test
    void oneSessionGoesWithWhatItBranchedFromAndItsBranches() {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, 10);
        String to = "sqlite:" + dir.resolve("to.db");

        Run r = run("sessions", "copy", "--from", sqlite, "--to", to, "--tenant", TENANT, "--session", "s0009-f", "--progress");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("copied s0009: head ").contains("copied s0009-f: head ").contains("copied s0009-f-f: head ")
                .contains("Copied 3 session(s)");
    }

    @Test
    void badInputIsOneLineAndANonZeroExitAndCreatesNothing() {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, 2);
        Path to = dir.resolve("to.db");

        Run tenant = run("sessions", "copy", "--from", sqlite, "--to", "sqlite:" + to, "--tenant", "nobody");
        assertThat(tenant.code()).isEqualTo(1);
        assertThat(tenant.err()).isEqualTo("threadline: tenant nobody has no sessions in " + sqlite + "; nothing was copied" + System.lineSeparator());

        Run session = run("sessions", "copy", "--from", sqlite, "--to", "sqlite:" + to, "--tenant", TENANT, "--session", "nope");
        assertThat(session.code()).isEqualTo(1);
        assertThat(session.err()).isEqualTo("threadline: no session 'nope' of tenant acme in " + sqlite + "; nothing was copied"
                + System.lineSeparator());
        assertThat(to).as("a refused copy creates no destination").doesNotExist();

        Run url = run("sessions", "copy", "--from", sqlite, "--to", "mongodb://x", "--tenant", TENANT);
        assertThat(url.code()).isEqualTo(2);
        assertThat(url.err().lines().findFirst().orElseThrow()).startsWith("threadline: invalid store: 'mongodb://x' is not a store URL");
        assertThat(url.err()).doesNotContain("Exception");

        Run missing = run("sessions", "copy", "--from", "sqlite:" + dir.resolve("nothing.db"), "--to", "sqlite:" + to);
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().lines().toList()).hasSize(1);
        assertThat(missing.err()).startsWith("threadline: no store at ");

        Run same = run("sessions", "copy", "--from", sqlite, "--to", sqlite);
        assertThat(same.code()).isEqualTo(2);
        assertThat(same.err().lines().findFirst().orElseThrow()).isEqualTo("threadline: --from and --to name the same store");
        assertThat(Files.exists(to)).isFalse();
    }
}
