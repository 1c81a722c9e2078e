package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.Threadline;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REPL's /usage and /compact, and the note after a compaction the loop made on its own. */
class ReplContextTest {
    @TempDir
    Path dir;

    private String chat(String input) {
        StringWriter out = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), "chat", "--db", dir.resolve("x.db").toString(), "--session", "s1");
        assertThat(code).isZero();
        return out.toString();
    }

    @Test
    void usageShowsTheSessionTotalsAndTheContextAgainstTheWindow() {
        String out = chat("/usage\nwhat is 2+2\nnote buy milk\n/usage\n");
        assertThat(out).contains("tokens used by this session (every model call, compaction summaries included):")
                .contains("  input 0   output 0   cache read 0   cache write 0   total 0")
                .contains("of 200,000 tokens (")
                .contains("policy auto-compact:threshold=0.9,keep=0.25 (budget 180,000 tokens), reply limit 4,096")
                .contains("counted by o200k_base (jtokkit, approximate for non-OpenAI models)");
        String second = out.substring(out.lastIndexOf("tokens used by this session"));
        assertThat(second).doesNotContain("total 0").contains(", 8 messages");
    }

    @Test
    void compactSummarisesTheContextAndTheJournalKeepsEverything() {
        String out = chat("/compact\nwhat is 2+2\nwhat is 3*3\n/compact the arithmetic\n/usage\nwhat is 4-1\n/history\n");
        assertThat(out).contains("Nothing to compact: no messages since the last clear or compaction.")
                .contains("Compacted 8 messages into a summary: the context went from ")
                .contains(", 1 message, 8 earlier ones summarised or left out (still in the journal)")
                .contains("= 3")
                .contains("[1] you: what is 2+2").contains("[2] you: what is 3*3").contains("[3] you: what is 4-1");
        StringWriter export = new StringWriter();
        Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(export, true), new PrintWriter(new StringWriter(), true),
                "sessions", "export", "s1", "--db", dir.resolve("x.db").toString());
        assertThat(export.toString()).contains("\"ContextCompacted\"").contains("what is 2+2").contains("what is 3*3");
    }

    @Test
    void helpListsTheContextCommands() {
        assertThat(chat("/help\n")).contains("/usage").contains("/compact [FOCUS]");
    }

    @Test
    void aTurnThatCompactedOnItsWaySaysSo() throws Exception {
        StringWriter out = new StringWriter();
        String lines = "what is 1+1 and some words to make this message longer than the rest\n".repeat(12);
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("y.db")))
                .model(ScriptedModel.demo().withContextWindow(1_500)).skills(Builtins.all(dir)).build();
             LineInput input = LineInput.open(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)))) {
            new Repl(tl, new PrintWriter(out, true), new PrintWriter(out, true), input, SessionConfig.DEFAULT.withMaxOutputTokens(100), "sqlite:" + dir.resolve("y.db")).run("s");
        }
        assertThat(out.toString()).contains("(context compacted: older turns were summarised to stay inside the model's window;");
    }
}
