package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat's {@code /search} (issue 38): what was said turns ago, found with its seq; nothing found is one line;
 * no words is the usage; a query with no word is one error line and the chat goes on.
 */
class ReplSearchTest {
    @TempDir
    Path dir;

    @Test
    void searchFindsWhatWasSaidAndBadQueriesAreOneLineEach() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String input = "the door code is 4712\nwhat is 2+2\n/search door code\n/search zebra\n/search\n/search ?!\nwhat is 3+3\n";
        int code = Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), "chat", "--db", dir.resolve("s.db").toString(), "--session", "memo");
        assertThat(code).isZero();
        String o = out.toString();
        assertThat(o.lines().filter(l -> l.startsWith("seq ")).findFirst().orElseThrow())
                .matches("seq \\d+  user  \\S+  the door code is 4712");
        assertThat(o).contains("Nothing in session memo matches \"zebra\".")
                .contains("usage: /search WORDS")
                .contains("= 6"); // the chat went on after the refused query
        assertThat(err.toString().strip()).doesNotContain("\n").contains("no word");
    }
}
