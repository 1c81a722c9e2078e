package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.ClientChild;
import dev.threadline.harness.process.Fleet;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, item 7: {@code threadline backup} of a SQLite store that another live JVM keeps running
 * turns on, then {@code threadline restore} to a new path: every session of the restored store opens,
 * its journal is the original's first events, and the restored store takes new turns. Bad input is one
 * line on stderr and a non-zero exit, and changes nothing.
 */
class BackupAndRestoreTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final List<String> SESSIONS = List.of("s1", "s2", "s3");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves the stores and the children's stderr
    Path dir;

    @Test
    void aBackupTakenWhileAnotherProcessRunsTurnsRestoresToAConsistentPrefixThatTakesNewTurns() throws Exception {
        Path db = dir.resolve("live.db");
        Path backup = dir.resolve("live.backup");
        Path restored = dir.resolve("restored/threadline.db");
        Files.createDirectories(restored.getParent());
        Map<String, List<StoredEvent>> original;
        try (Fleet fleet = new Fleet(dir, "sqlite:" + db)) {
            ChildProcess a = fleet.start("A#1", ClientChild.class, Map.of("sessions", String.join(",", SESSIONS), "clients", 1));
            awaitSteps(fleet, 20, "A's steps before the backup");

            CliTest.Run run = new CliChild(dir).run("backup", "--db", db.toString(), "--to", backup.toString());
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.out()).startsWith("Backed up sqlite:" + db + " to " + backup + ": 3 sessions, schema version ");

            fleet.clearAcks();
            awaitSteps(fleet, 20, "A's steps after the backup");
            assertThat(a.isAlive()).as("A ran turns before, during and after the backup").isTrue();
            fleet.quit(a);
            original = fleet.journals("acme", SESSIONS);
        }

        CliTest.Run run = cli("restore", "--from", backup.toString(), "--to", "sqlite:" + restored);
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("Restored " + backup + " to sqlite:" + restored + ": 3 sessions")
                .contains("threadline sessions sweep --db " + restored);

        try (Fleet after = new Fleet(dir, "sqlite:" + restored)) {
            Map<String, List<StoredEvent>> copies = after.journals("acme", SESSIONS);
            int shorter = 0;
            for (String s : SESSIONS) {
                List<StoredEvent> copy = copies.get(s);
                List<StoredEvent> whole = original.get(s);
                assertThat(copy).as("session %s in the backup", s).isNotEmpty().hasSizeLessThanOrEqualTo(whole.size());
                assertThat(copy).as("session %s: the backup holds the first events of its journal", s)
                        .isEqualTo(whole.subList(0, copy.size()));
                shorter += copy.size() < whole.size() ? 1 : 0;
            }
            assertThat(shorter).as("sessions that went on after the backup").isPositive();

            ChildProcess b = after.start("B#1", ClientChild.class, Map.of("sessions", "s1", "waitMillis", 10_000));
            int from = b.lineCount();
            b.send("SUBMIT s1 after-1 work after-1");
            assertThat(b.awaitLine(from, "B's turn on the restored store", l -> l.startsWith("RESULT after-1 "), WAIT).text())
                    .startsWith("RESULT after-1 COMPLETED ");
            after.quit(b);
            List<StoredEvent> s1 = after.journals("acme", List.of("s1")).get("s1");
            assertThat(s1.subList(0, copies.get("s1").size())).isEqualTo(copies.get("s1"));
            assertThat(s1).hasSizeGreaterThan(copies.get("s1").size());
        }
    }

    @Test
    void anExistingTargetIsRefusedAndKept() throws Exception {
        Path db = store("s.db");
        Path taken = Files.writeString(dir.resolve("taken"), "keep me");

        CliTest.Run backup = cli("backup", "--db", db.toString(), "--to", taken.toString());
        assertRefused(backup, "threadline: the backup target " + taken + " already exists; choose a new file (nothing was written)");

        Path good = dir.resolve("good.backup");
        assertThat(cli("backup", "--store", "sqlite:" + db, "--to", good.toString()).code()).isZero();
        CliTest.Run restore = cli("restore", "--from", good.toString(), "--to", "sqlite:" + taken);
        assertRefused(restore, "threadline: the restore target " + taken + " already exists; choose a new file (nothing was written)");
        assertThat(Files.readString(taken)).isEqualTo("keep me");

        Path other = store("other.db");
        CliTest.Run forced = cli("restore", "--from", good.toString(), "--to", "sqlite:" + other, "--force");
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(cli("sessions", "list", "--db", other.toString()).out()).contains("one").doesNotContain("other");
    }

    @Test
    void aFileThatIsNotSqliteOrIsDamagedIsRefusedAndNothingIsRestored() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "just some notes\n".repeat(100));
        Path target = dir.resolve("r.db");
        assertRefused(cli("restore", "--from", text.toString(), "--to", "sqlite:" + target),
                "threadline: the backup " + text + " is not a SQLite database");

        Path damaged = dir.resolve("damaged.backup");
        assertThat(cli("backup", "--db", store("big.db").toString(), "--to", damaged.toString()).code()).isZero();
        try (RandomAccessFile f = new RandomAccessFile(damaged.toFile(), "rw")) {
            f.seek(4096 * 2);
            f.write(new byte[4096 * 3]); // zeros over three pages of its b-trees
        }
        CliTest.Run run = cli("restore", "--from", damaged.toString(), "--to", "sqlite:" + target);
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).startsWith("threadline: the backup " + damaged + " is damaged").hasLineCount(1);
        assertThat(target).doesNotExist();

        assertRefused(cli("backup", "--db", dir.resolve("missing.db").toString(), "--to", dir.resolve("m.backup").toString()),
                "threadline: no store at " + dir.resolve("missing.db") + "; nothing was created. `threadline chat --db "
                        + dir.resolve("missing.db") + "` creates one");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain("r.db", "m.backup")
                    .noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void anEncryptedStoresUrlWithItsKeysOptionBacksUpTheFileWithoutPlaintext() throws Exception {
        String key = java.util.Base64.getEncoder().encodeToString("k".repeat(32).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Path ring = Files.writeString(dir.resolve("keyring.json"),
                "{\"tenants\": {\"*\": {\"active\": \"k1\", \"keys\": {\"k1\": \"" + key + "\"}}}}");
        Path db = dir.resolve("sealed.db");
        String url = "sqlite:" + db + "?keys=keyring:" + ring;
        String canary = "canary-cli-4d2a77";
        CliTest.Run chat = cliWithInput("remember " + canary + "\n/exit\n", "chat", "--model", "scripted", "--store", url, "--session", "one");
        assertThat(chat.code()).as(chat.err()).isZero();
        assertThat(cli("sessions", "list", "--store", url).out()).contains("one");

        Path backup = dir.resolve("sealed.backup");
        CliTest.Run run = cli("backup", "--store", url, "--to", backup.toString());
        assertThat(run.code()).as(run.err()).isZero();
        String bytes = new String(Files.readAllBytes(backup), java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(bytes).as("the backup holds no plaintext of the conversation").doesNotContain(canary);
        assertThat(db.resolveSibling("sealed.db?keys=keyring:" + ring)).doesNotExist();

        Path plain = dir.resolve("plain.db"); // the same without keys: the scan finds the canary, so it can fail
        assertThat(cliWithInput("remember " + canary + "\n/exit\n", "chat", "--model", "scripted", "--db", plain.toString(),
                "--session", "one").code()).isZero();
        Path plainBackup = dir.resolve("plain.backup");
        assertThat(cli("backup", "--db", plain.toString(), "--to", plainBackup.toString()).code()).isZero();
        assertThat(new String(Files.readAllBytes(plainBackup), java.nio.charset.StandardCharsets.ISO_8859_1)).contains(canary);
    }

    @Test
    void postgresqlAndRedisAreSentToTheirOwnProcedures() {
        CliTest.Run pg = cli("backup", "--store", "postgresql://app:secret@localhost:5432/threadline", "--to", dir.resolve("pg").toString());
        assertThat(pg.code()).isEqualTo(1);
        assertThat(pg.err()).hasLineCount(1).contains("pg_dump").contains("pg_basebackup").contains("docs/operations.md")
                .doesNotContain("secret");
        CliTest.Run redis = cli("backup", "--store", "redis://localhost:6379", "--to", dir.resolve("redis").toString());
        assertThat(redis.code()).isEqualTo(1);
        assertThat(redis.err()).hasLineCount(1).contains("BGSAVE").contains("AOF").contains("docs/operations.md");

        CliTest.Run restore = cli("restore", "--from", dir.resolve("x").toString(), "--to", "postgresql://localhost/threadline");
        assertThat(restore.code()).isEqualTo(2);
        assertThat(restore.err()).startsWith("threadline: --to must be sqlite:PATH");
        assertThat(cli("backup", "--db", dir.resolve("x.db").toString()).code()).as("--to is required").isEqualTo(2);
        CliTest.Run unknown = cli("backup", "--store", "nosuch:x", "--to", dir.resolve("pg").toString());
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("threadline: invalid store: 'nosuch:x' is not a store URL");
        assertThat(dir.resolve("pg")).doesNotExist();
    }

    private static void assertRefused(CliTest.Run run, String line) {
        assertThat(run.code()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).isEqualTo(line + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }

    /** A store with one session, "one" ("other" in other.db; 20 more sessions in big.db), made by a chat. */
    private Path store(String name) {
        Path file = dir.resolve(name);
        String id = name.equals("other.db") ? "other" : "one";
        assertThat(cliWithInput("hello\n/exit\n", "chat", "--model", "scripted", "--db", file.toString(), "--session", id).code()).isZero();
        for (int i = 0; name.equals("big.db") && i < 20; i++) {
            cliWithInput("what is " + i + "+1\nnote item " + i + "\n/exit\n", "chat", "--model", "scripted", "--db", file.toString(), "--session", "m" + i);
        }
        return file;
    }

    private static CliTest.Run cli(String... args) {
        return cliWithInput("", args);
    }

    private static CliTest.Run cliWithInput(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliTest.Run(code, out.toString(), err.toString());
    }

    private static void awaitSteps(Fleet fleet, int n, String what) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            assertThat(fleet.nextAck(WAIT)).as("%s: step %d of %d", what, i + 1, n).isNotNull();
        }
    }
}
