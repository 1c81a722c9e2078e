package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REPL's {@code /budget}: shows the budget, sets it, and a turn stopped at the budget continues when it is raised. */
class ReplBudgetTest {
    @TempDir
    Path dir;

    @Test
    void aTurnStoppedAtTheBudgetContinuesWhenBudgetRaisesIt() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream("/budget\n/budget 1\nwhat is (2+3)*7\n/budget 1\n/budget lots\n/budget 0\n/budget\n"
                        .getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true), new PrintWriter(err, true),
                "chat", "--db", dir.resolve("b.db").toString(), "--session", "b1");
        assertThat(code).isZero();
        String o = out.toString();
        assertThat(o).contains("budget: no token limit, no cost limit; spent 0 tokens")
                .contains("budget: 1 tokens, no cost limit; spent 0 tokens")
                .contains("(the turn waits: the session has used ")
                .contains("Raise it to continue the turn with /budget");
        String afterRaise = o.substring(o.indexOf("b1> /budget 0"));
        assertThat(afterRaise).contains("= 35").contains("budget: no token limit, no cost limit");
        assertThat(err.toString()).contains("leaves it no room").contains("/budget").contains("'lots'");
    }
}
