package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real CLI (picocli, SQLite file, demo model) with scripted input, as a user would pipe it. */
class CliTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    private Run run(String input, String... args) {
        if (args[0].equals("chat") && !Arrays.asList(args).contains("--model")) {
            // the default model follows ANTHROPIC_API_KEY / OPENAI_API_KEY: pin the offline one
            String[] pinned = new String[args.length + 2];
            pinned[0] = "chat";
            pinned[1] = "--model";
            pinned[2] = "scripted";
            System.arraycopy(args, 1, pinned, 3, args.length - 1);
            args = pinned;
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private String db() {
        return dir.resolve("x.db").toString();
    }

    @Test
    void aScriptedChatAnswersRecordsTheNoteAndIsThereOnTheNextRun() {
        Run first = run("what is (2+3)*4\nnote buy milk\n/exit\n", "chat", "--db", db(), "--session", "s1");
        assertThat(first.code()).isZero();
        assertThat(first.out()).contains("-> calculate").contains("= 20").contains("Noted (1 note): buy milk");

        Run second = run("/history\n/vars\n", "chat", "--db", db(), "--session", "s1");
        assertThat(second.code()).isZero();
        assertThat(second.out()).contains("resumed").contains("[1] you: what is (2+3)*4").contains("[2] you: note buy milk")
                .contains("meeting_notes = [\"buy milk\"]");

        Run export = run("", "sessions", "export", "s1", "--db", db());
        assertThat(export.code()).isZero();
        List<JsonNode> lines = Arrays.stream(export.out().split("\n")).map(l -> Json.parse(l, "line")).toList();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i).get("seq").asLong()).isEqualTo(i + 1);
        }
        assertThat(lines).extracting(l -> l.at("/event/type").asText())
                .contains("SessionCreated", "UserMessageReceived", "ToolCallCompleted", "VariablesChanged", "TurnCompleted");
    }

    @Test
    void rewindFromTheReplContinuesOnANewBranchAndKeepsTheOldOne() {
        run("hello\nwhat is 1+1\n/exit\n", "chat", "--db", db(), "--session", "s1");
        Run r = run("/rewind 4\nwhat is 2+2\n/history\n", "chat", "--db", db(), "--session", "s1");
        assertThat(r.out()).contains("now on branch s1.r1").contains("= 4");
        Run list = run("", "sessions", "list", "--db", db());
        assertThat(list.out()).contains("s1 ").contains("s1.r1").contains("rewind of s1 at seq 4");
        Run old = run("/history\n", "chat", "--db", db(), "--session", "s1");
        assertThat(old.out()).contains("what is 1+1").doesNotContain("what is 2+2");
    }

    @Test
    void badInputGetsAClearErrorAndChangesNothing() {
        run("hello\n", "chat", "--db", db(), "--session", "s1");
        String before = run("", "sessions", "export", "s1", "--db", db()).out();

        Run r = run("/rewind 999\n/rewind x\n/resume nosuch\n/frobnicate\n", "chat", "--db", db(), "--session", "s1");
        assertThat(r.err()).contains("error: invalid seq: 999 is not a checkpoint")
                .contains("'x' is not a checkpoint seq")
                .contains("no session with id 'nosuch'")
                .contains("unknown command /frobnicate");
        assertThat(run("", "sessions", "export", "s1", "--db", db()).out()).isEqualTo(before);

        Run show = run("", "sessions", "show", "nosuch", "--db", db());
        assertThat(show.code()).isEqualTo(1);
        assertThat(show.err()).contains("no session with id 'nosuch'");

        Run badId = run("", "chat", "--db", db(), "--session", "../etc");
        assertThat(badId.code()).isEqualTo(1);
        assertThat(badId.err()).contains("not a valid id");
    }

    @Test
    void deleteRemovesASessionButNotOneWithBranches() {
        run("hello\n", "chat", "--db", db(), "--session", "s1");
        run("/fork 1\n", "chat", "--db", db(), "--session", "s1");
        Run refused = run("", "sessions", "delete", "s1", "--db", db());
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("has branches [s1.f1]");
        assertThat(run("", "sessions", "delete", "s1.f1", "--db", db()).code()).isZero();
        assertThat(run("", "sessions", "delete", "s1", "--db", db()).code()).isZero();
        assertThat(run("", "sessions", "list", "--db", db()).out()).contains("No sessions");
    }
}
