package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.store.sqlite.SqliteStateStore;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Line;
import dev.threadline.harness.process.Signals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline chat} as a process of its own ({@code java -cp <test class path> dev.threadline.cli.Main
 * chat --model scripted --stream}, with {@link TestChatExtension}): SIGINT during a slow turn ends the
 * turn as interrupted and the chat answers its next line; approvals are answered at the prompt; the
 * reply is printed while the model still streams it.
 */
class ChatProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private ChildProcess chat(String session) {
        return ChildProcess.of(Main.class).name("chat")
                .jvmOptions("-D" + ChatExtension.PROPERTY + "=" + TestChatExtension.class.getName(),
                        "-Dthreadline.test.runs=" + dir.resolve("runs.txt"), "-Dthreadline.test.gate=" + dir.resolve("gate"))
                .args("chat", "--model", "scripted", "--stream", "--db", dir.resolve("chat.db").toString(), "--session", session)
                .stderr(dir.resolve("chat.err")).start();
    }

    private <T> T read(String session, Function<Session, T> f) {
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("chat.db"))).model(ScriptedModel.demo()).build()) {
            return f.apply(tl.defaultTenant().open(session));
        }
    }

    private List<Message> messages(String session) {
        return read(session, s -> s.state().messages());
    }

    private static Line after(ChildProcess c, int from, String what, String prefix) {
        return c.awaitLine(from, what, l -> l.startsWith(prefix), WAIT);
    }

    private static void exit(ChildProcess c) {
        c.send("/exit");
        assertThat(c.awaitExit(WAIT)).as(c.describe("exit code")).isZero();
    }

    @Test
    void sigintDuringASlowTurnInterruptsItAndTheChatAnswersTheNextLine() {
        try (ChildProcess c = chat("c1")) {
            c.awaitPrefix("Type /help", WAIT);
            int from = c.lineCount();
            c.send("slow");
            after(c, from, "the slow skill", "slow: started");
            Signals.send(c.pid(), "INT");
            after(c, from, "the interrupt notice", "(interrupting the turn");
            after(c, from, "the turn's end", "(turn ended:");

            from = c.lineCount();
            c.send("what is (2+3)*4");
            Line answer = c.awaitLine(from, "the next answer", l -> l.startsWith("assistant:") && l.contains("20"), WAIT);
            assertThat(answer.text()).contains("= 20");
            exit(c);
        }
        List<StoredEvent> journal = read("c1", s -> s.history().journal());
        assertThat(journal).extracting(StoredEvent::event).filteredOn(Event.TurnInterrupted.class::isInstance).hasSize(1);
        assertThat(journal.get(journal.size() - 1).event()).as("the next turn completed").isInstanceOf(Event.TurnCompleted.class);
        List<Message> messages = messages("c1");
        assertThat(TranscriptValidator.violations(messages, TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
    }

    @Test
    void approvalsAreAnsweredAtThePromptAndByApprovals() throws Exception {
        try (ChildProcess c = chat("c2")) {
            for (String line : List.of("pay 70", "maybe", "y", "pay 30", "n too much", "pay 40", "e {\"amount\":20}",
                    "pay 50", "", "/approvals", "y", "/exit")) {
                c.send(line);
            }
            assertThat(c.awaitExit(WAIT)).as(c.describe("exit code")).isZero();
            List<String> out = c.lines().stream().map(Line::text).toList();
            assertThat(out).contains("  ?? pay {\"amount\":70} needs your approval", "  <- paid 70",
                    "  <- ERROR denied by the user: too much", "(the turn waits: /approvals answers it later; a new message denies it)",
                    "  <- paid 50");
            // an answer that is none of them is refused (the error goes to stderr) and the same call is asked again
            int maybe = out.indexOf(out.stream().filter(l -> l.endsWith("later> maybe")).findFirst().orElseThrow());
            assertThat(out.get(maybe + 1)).isEqualTo("  ?? pay {\"amount\":70} needs your approval");
            assertThat(out).anyMatch(l -> l.startsWith("  <- ") && l.contains("paid 20"));
            assertThat(out).anyMatch(l -> l.contains("approval: pay {\"amount\":50}"));
        }
        assertThat(Files.readAllLines(dir.resolve("runs.txt"))).as("what the pay skill ran").containsExactly("70", "20", "50");
        assertThat((int) read("c2", s -> s.state().permissionDenials())).isEqualTo(1);
    }

    @Test
    void theReplyIsPrintedWhileTheModelStreamsIt() throws Exception {
        try (ChildProcess c = chat("c3")) {
            c.awaitPrefix("Type /help", WAIT);
            int from = c.lineCount();
            c.send("story");
            after(c, from, "the first streamed word", "assistant: Once");
            assertThat(c.lines().subList(from, c.lineCount())).extracting(Line::text).doesNotContain("upon");
            assertThat(messages("c3")).as("nothing of the reply is journalled yet")
                    .noneMatch(m -> m.text().contains("Once"));
            Files.createFile(dir.resolve("gate"));
            after(c, from, "the second word", "upon");
            after(c, from, "the last words", "a time");
            exit(c);
        }
        assertThat(messages("c3")).anyMatch(m -> m.text().equals("Once\nupon\na time"));
    }

    @Test
    void aStreamedReplyIsPrintedAfterTheToolCallAndResultThatProducedIt() {
        try (ChildProcess c = chat("c5")) {
            c.awaitPrefix("Type /help", WAIT);
            int from = c.lineCount();
            c.send("what is 3*3");
            after(c, from, "the reply", "assistant:");
            exit(c);
            List<String> out = c.lines().subList(from, c.lineCount()).stream().map(Line::text).toList();
            int call = indexOf(out, "  -> calculate");
            int result = indexOf(out, "  <- 9");
            int reply = indexOf(out, "assistant:");
            assertThat(call).as(String.join("\n", out)).isNotNegative().isLessThan(result);
            assertThat(result).as(String.join("\n", out)).isLessThan(reply);
            assertThat(out.get(reply)).contains("9");
        }
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void rewindingPastAPaymentIsRefusedWithTheEffectUntilForcedAndThePaymentIsNotMadeAgain() throws Exception {
        try (ChildProcess c = chat("c4")) {
            for (String line : List.of("pay 15", "y", "/checkpoints", "/rewind 1", "/rewind 1 now", "/rewind 1 --force", "/exit")) {
                c.send(line);
            }
            assertThat(c.awaitExit(WAIT)).as(c.describe("exit code")).isZero();
            assertThat(c.lines()).extracting(Line::text).contains("  <- paid 15")
                    .anyMatch(l -> l.startsWith("Rewound to seq 1: now on branch c4.r"))
                    .anyMatch(l -> l.startsWith("    1 ") && l.endsWith("[1 side effect after]"))
                    .anyMatch(l -> l.startsWith("(side effects: pay (x") && l.contains(": ok: paid 15"));
        }
        String err = Files.readString(dir.resolve("chat.err"));
        assertThat(err).contains("cannot undo 1 side effect(s): pay").contains("/rewind 1 --force branches anyway")
                .contains("usage: /rewind SEQ [--force]");
        assertThat(Files.readAllLines(dir.resolve("runs.txt"))).as("what the pay skill ran").containsExactly("15");
    }
}
