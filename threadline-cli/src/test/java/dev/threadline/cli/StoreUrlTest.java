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

/** One way to choose a store: a URL on every command; a bad URL is a usage error, an unreachable server one line, never a trace. */
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
        assertThat(r.code()).isEqualTo(2);
        String[] lines = r.err().strip().split("\n");
        assertThat(lines).hasSize(2); // what is wrong, and the usage errors' hint
        assertThat(lines[0]).startsWith("threadline: invalid store: 'mongodb://x' is not a store URL")
                .contains("sqlite:PATH").contains("postgresql://").contains("redis://").contains("memory:");
        assertThat(lines[1]).isEqualTo("Try 'threadline sessions list --help' for more.");
    }

    @Test
    void aBadStoreUrlIsAUsageErrorLikeABadModel() {
        for (String[] args : new String[][] {{"sessions", "list"}, {"sessions", "show", "s1"}, {"chat", "--model", "scripted"},
                {"keys", "list"}, {"serve", "--port", "0"}}) {
            String[] withStore = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--store", "nosuch:x"))
                    .toArray(String[]::new);
            Run r = run("/exit\n", withStore);
            String cmd = String.join(" ", args);
            assertThat(r.code()).as(cmd).isEqualTo(2);
            assertThat(r.err().lines().findFirst().orElseThrow()).as(cmd).startsWith("threadline: invalid store: 'nosuch:x' is not a store URL");
            assertThat(r.err()).as(cmd).doesNotContain("Exception").contains("--help");
        }
        Run model = run("", "chat", "--model", "nosuch:x", "--store", "memory:");
        assertThat(model.code()).isEqualTo(2);
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
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("give --store or --db, not both");
        assertThat(Files.exists(dir.resolve("b.db"))).isFalse();
    }
}
