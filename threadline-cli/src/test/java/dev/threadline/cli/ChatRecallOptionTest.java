package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code threadline chat --recall K[:TOKENS]}: kept with the new session's config; a bad value is one line and no store. */
class ChatRecallOptionTest {
    @TempDir
    Path dir;

    private int run(String input, StringWriter out, StringWriter err, String... args) {
        return Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
    }

    @Test
    void theRecallIsKeptWithTheNewSession() {
        Path db = dir.resolve("r.db");
        StringWriter out = new StringWriter();
        assertThat(run("what is 2+2\n", out, new StringWriter(), "chat", "--db", db.toString(), "--session", "r1", "--recall", "3:500"))
                .isZero();
        assertThat(out.toString()).contains("= 4");
        StringWriter export = new StringWriter();
        assertThat(run("", export, new StringWriter(), "sessions", "export", "r1", "--db", db.toString())).isZero();
        assertThat(export.toString()).contains("\"recall\":{\"k\":3,\"tokenBudget\":500}");
        StringWriter plain = new StringWriter();
        run("", new StringWriter(), new StringWriter(), "chat", "--db", db.toString(), "--session", "r2", "--recall", "4");
        run("", plain, new StringWriter(), "sessions", "export", "r2", "--db", db.toString());
        assertThat(plain.toString()).contains("\"recall\":{\"k\":4,\"tokenBudget\":" + RecallSpec.DEFAULT_TOKENS + "}");
    }

    @Test
    void aBadRecallIsOneLineNamingTheOptionAndOpensNoStore() {
        for (String bad : new String[] {"0", "21", "3:0", "three", "3:4:5", "3:200000"}) {
            Path db = dir.resolve("bad.db");
            StringWriter err = new StringWriter();
            assertThat(run("", new StringWriter(), err, "chat", "--db", db.toString(), "--recall", bad)).as(bad).isNotZero();
            assertThat(err.toString()).as(bad).contains("--recall").contains(bad);
            assertThat(err.toString().strip().lines().filter(l -> !l.isBlank() && !l.startsWith("Usage") && !l.startsWith(" ")
                    && !l.startsWith("Try")).count()).as(bad).isLessThanOrEqualTo(1);
            assertThat(Files.exists(db)).as("no store made for " + bad).isFalse();
        }
    }
}
