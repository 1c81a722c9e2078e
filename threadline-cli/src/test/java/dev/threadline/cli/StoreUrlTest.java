package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One way to choose a store: a URL on every command; bad URLs and unreachable servers are one line, never a trace. */
class StoreUrlTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    private static Run run(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes()), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void aSqliteUrlAndTheDbShorthandNameTheSameStore() {
        Path db = dir.resolve("a.db");
        assertThat(run("note hi\n/exit\n", "chat", "--model", "scripted", "--store", "sqlite:" + db, "--session", "s1").code()).isZero();
        Run list = run("", "sessions", "list", "--db", db.toString());
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains("s1");
    }

    @Test
    void anUnknownSchemeIsOneLineNamingTheFormsThatExist() {
        Run r = run("", "sessions", "list", "--store", "mongodb://x");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).doesNotContain("\n").startsWith("threadline: invalid store: 'mongodb://x' is not a store URL")
                .contains("sqlite:PATH").contains("postgresql://").contains("redis://").contains("memory:");
    }

    @Test
    void unreachableServersAreOneLineAndFast() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens there once it is closed
        }
        for (String url : new String[] {"postgresql://u:secret@127.0.0.1:" + closed + "/db", "redis://:secret@127.0.0.1:" + closed}) {
            Run r = run("", "sessions", "list", "--store", url);
            assertThat(r.code()).as(url).isEqualTo(1);
            assertThat(r.err().strip()).as(url).startsWith("threadline: ").doesNotContain("\n").doesNotContain("secret")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void giveStoreOrDbNotBoth() throws Exception {
        Run r = run("", "sessions", "list", "--store", "memory:", "--db", dir.resolve("b.db").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("give --store or --db, not both");
        assertThat(Files.exists(dir.resolve("b.db"))).isFalse();
    }
}
