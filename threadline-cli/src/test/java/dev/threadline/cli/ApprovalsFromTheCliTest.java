package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 7 (and the edited-arguments reply of item 9), in real {@code threadline chat}
 * processes: {@code --require-approval TOOL} makes the demo's calls wait at the prompt, "ask me ..."
 * makes it ask a question, the reply to edited arguments reads cleanly, and a call left waiting is
 * asked at once when the chat starts again.
 */
class ApprovalsFromTheCliTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void theDemoAsksForApprovalAndQuestionsAndARestartAsksTheWaitingCallAtOnce() {
        CliChild cli = new CliChild(dir);
        String db = dir.resolve("a.db").toString();
        CliTest.Run first = cli.run(new String[] {"what is 1+1", "e {\"expression\":\"2+2\"}", "ask me which colour", "blue",
                "what is 3+3", "", "/exit"}, "chat", "--model", "scripted", "--db", db, "--session", "a",
                "--require-approval", "calculate");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("?? calculate {\"expression\":\"1+1\"} needs your approval")
                .contains("assistant: 2+2 = 4 (with the arguments you edited)").doesNotContain("= (the user approved")
                .contains("?? the agent asks: which colour?").contains("assistant: You answered: blue")
                .contains("?? calculate {\"expression\":\"3+3\"} needs your approval");
        assertThat(first.err()).isEmpty();

        CliTest.Run again = cli.run(new String[] {"y", "/exit"}, "chat", "--model", "scripted", "--db", db, "--session", "a");
        assertThat(again.code()).as(again.err()).isZero();
        String out = again.out();
        assertThat(out).contains("This session's turn waits for you (1 call(s)):")
                .doesNotContain("/approvals.").contains("assistant: 3+3 = 6");
        int asked = out.indexOf("?? calculate {\"expression\":\"3+3\"} needs your approval");
        assertThat(asked).isGreaterThan(out.indexOf("Type /help")).isLessThan(out.indexOf("assistant: 3+3 = 6"));
        assertThat(out.indexOf("a> ")).as("asked before the first prompt").isGreaterThan(asked);
        assertThat(again.err()).isEmpty();
    }

    @Test
    void anUnknownToolIsOneLineOfBadUsageAndCreatesNothing() {
        Path fresh = dir.resolve("fresh.db");
        CliTest.Run r = new CliChild(dir).run(new String[] {"what is 1+1", "/exit"}, "chat", "--model", "scripted", "--db",
                fresh.toString(), "--require-approval", "calculator");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isBlank();
        assertThat(r.err().lines().findFirst().orElseThrow()).startsWith("threadline: --require-approval: no tool 'calculator'")
                .contains("calculate");
        assertThat(fresh).doesNotExist();
    }
}
