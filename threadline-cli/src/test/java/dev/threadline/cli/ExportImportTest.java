package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.PgServer;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: {@code threadline export} / {@code threadline import} carry a tenant's sessions (forks, variables,
 * command records) through a JSON Lines file with a checksum per session, from SQLite to PostgreSQL and,
 * through stdin, to another SQLite file; a changed byte is refused naming the line, and nothing is written.
 */
class ExportImportTest {
    private static final String TENANT = "acme";
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    private static Run run(byte[] stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(stdin), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static Run run(String... args) {
        return run(new byte[0], args);
    }

    private Path export(String sqlite) throws Exception {
        Run r = run("export", "--tenant", TENANT, "--store", sqlite);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        Path file = dir.resolve("acme.jsonl");
        Files.writeString(file, r.out());
        return file;
    }

    @Test
    void anExportImportsIntoPostgresqlAndThroughStdinIntoSqliteWithEveryJournalEqual() throws Exception {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, 20);
        Path file = export(sqlite);
        int sessions = CopyFixture.sessions(20);
        assertThat(Files.readAllLines(file)).filteredOn(l -> l.startsWith("{\"kind\":\"end\",")).hasSize(sessions);

        PgServer.shared().createDatabase("import_round_trip");
        String pg = PgServer.shared().url("import_round_trip");
        Run toPg = run("import", "--store", pg, "--file", file.toString());
        assertThat(toPg.code()).as(toPg.err()).isZero();
        assertThat(toPg.out()).startsWith("Imported " + sessions + " session(s) of tenant acme into ")
                .contains(": " + sessions + " new, 0 resumed, 0 already there;")
                .contains("Compared " + sessions + " journal(s) with the file: equal");
        CopyFixture.assertEqual(sqlite, pg, TENANT, 20);

        String back = "sqlite:" + dir.resolve("back.db");
        Run viaStdin = run(Files.readAllBytes(file), "import", "--store", back);
        assertThat(viaStdin.code()).as(viaStdin.err()).isZero();
        CopyFixture.assertEqual(sqlite, back, TENANT, 20);

        Run again = run("import", "--store", back, "--file", file.toString());
        assertThat(again.out()).as("a rerun writes nothing").contains(": 0 new, 0 resumed, " + sessions + " already there; 0 events written");

        Run toFile = run("export", "--tenant", TENANT, "--store", back, "--file", dir.resolve("again.jsonl").toString());
        assertThat(toFile.out()).startsWith("Exported " + sessions + " session(s) of tenant acme (");
        assertThat(Files.readString(dir.resolve("again.jsonl"))).as("the same sessions export the same file").isEqualTo(Files.readString(file));
    }

    @Test
    void aChangedByteIsRefusedNamingTheLineAndNothingIsWritten() throws Exception {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, 3);
        Path file = export(sqlite);
        byte[] bytes = Files.readAllBytes(file);
        List<String> lines = Files.readAllLines(file);
        int victim = 1 + lines.indexOf(lines.stream().filter(l -> l.contains("hello 0")).findFirst().orElseThrow()); // s0000's first message
        assertThat(victim).isGreaterThan(2);
        String text = lines.get(victim - 1);
        int at = String.join("\n", lines.subList(0, victim - 1)).length() + 1 + text.indexOf("hello 0") + "hello ".length();
        assertThat((char) bytes[at]).isEqualTo('0');
        bytes[at] = '9';
        Files.write(file, bytes);
        int trailer = 1 + lines.indexOf(lines.stream().filter(l -> l.startsWith("{\"kind\":\"end\",")).findFirst().orElseThrow());
        Path to = dir.resolve("to.db");

        Run r = run("import", "--store", "sqlite:" + to, "--file", file.toString());

        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("threadline: line " + trailer + ": session 's0000' (lines 2-" + (trailer - 1)
                + ") does not match its checksum; the file is damaged, nothing was imported" + System.lineSeparator());
        assertThat(r.out()).isEmpty();
        assertThat(to).as("nothing written, not even the store's file").doesNotExist();

        Run viaStdin = run(bytes, "import", "--store", "sqlite:" + to);
        assertThat(viaStdin.code()).isEqualTo(1);
        assertThat(viaStdin.err()).startsWith("threadline: line " + trailer + ": ");
    }

    @Test
    void badInputIsOneLineAndANonZeroExit() throws Exception {
        String sqlite = "sqlite:" + dir.resolve("from.db");
        CopyFixture.write(sqlite, TENANT, 1);

        Run tenant = run("export", "--tenant", "nobody", "--store", sqlite);
        assertThat(tenant.code()).isEqualTo(1);
        assertThat(tenant.out()).isEmpty();
        assertThat(tenant.err()).isEqualTo("threadline: tenant nobody has no sessions in " + sqlite + "; nothing was exported"
                + System.lineSeparator());

        Run url = run("export", "--tenant", TENANT, "--store", "mongodb://x");
        assertThat(url.code()).isEqualTo(2);
        assertThat(url.err().lines().findFirst().orElseThrow()).startsWith("threadline: invalid store: 'mongodb://x' is not a store URL");

        Run badUrl = run("import", "--store", "nosuch:x", "--file", export(sqlite).toString());
        assertThat(badUrl.code()).isEqualTo(2);
        assertThat(badUrl.err().lines().findFirst().orElseThrow()).startsWith("threadline: invalid store: 'nosuch:x' is not a store URL");

        Run missing = run("import", "--store", "sqlite:" + dir.resolve("to.db"), "--file", dir.resolve("nothing.jsonl").toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("threadline: no file " + dir.resolve("nothing.jsonl") + "; nothing was imported"
                + System.lineSeparator());

        Run notAnExport = run("hello\n".getBytes(StandardCharsets.UTF_8), "import", "--store", "sqlite:" + dir.resolve("to.db"));
        assertThat(notAnExport.code()).isEqualTo(1);
        assertThat(notAnExport.err()).isEqualTo("threadline: line 1: not a JSON object; the file is damaged, nothing was imported"
                + System.lineSeparator());
        assertThat(dir.resolve("to.db")).doesNotExist();
    }
}
