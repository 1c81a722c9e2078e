package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A journal with a missing row: export prints one clear line naming session and seq and exits non-zero. */
class ExportOfABrokenJournalTest {
    @TempDir
    Path dir;

    private static int run(StringWriter out, StringWriter err, String... args) {
        return Main.run(new ByteArrayInputStream("what is 1+1\n/exit\n".getBytes()), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
    }

    @Test
    void aJournalWithAMissingRowIsOneClearLineNamingSessionAndSeqAndExportExitsNonZero() throws Exception {
        Path db = dir.resolve("t.db");
        assertThat(run(new StringWriter(), new StringWriter(), "chat", "--model", "scripted", "--db", db.toString(), "--session", "s1"))
                .isZero();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("DELETE FROM events WHERE sid = (SELECT sid FROM sessions WHERE id = 's1') AND seq = 3")).isEqualTo(1);
        }

        for (String cmd : new String[] {"export", "show"}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = run(out, err, "sessions", cmd, "s1", "--db", db.toString());

            assertThat(code).as(cmd).isEqualTo(1);
            assertThat(out.toString()).as(cmd + " prints no partial journal").isEmpty();
            assertThat(err.toString().strip()).as(cmd).isEqualTo("threadline: session 's1' seq 3: journal row is missing (the next row is seq 4)");
        }
    }
}
