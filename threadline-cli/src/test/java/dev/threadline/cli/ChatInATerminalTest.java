package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.SilentServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code threadline chat} in a real terminal (tmux, see {@link TmuxTerminal}), as a person types it
 * (issue 26, items 1 and 2): Ctrl-C during a turn that waits on a model which never answers cancels the
 * model call and gives the prompt back at once, the session left idle with the turn journalled as
 * interrupted; and a turn's tool call and result show before the reply that follows them, with
 * {@code --stream} and without (a terminal streams either way). The bounds are generous waits for
 * conditions; the screen is polled until they hold.
 */
class ChatInATerminalTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void ctrlCCancelsTheWaitingModelCallAndThePromptComesBack() throws Exception {
        String db = dir.resolve("chat.db").toString();
        try (SilentServer model = new SilentServer(false);
             TmuxTerminal t = TmuxTerminal.start(dir, "chat", "--model", "openai:test-model", "--base-url", model.url() + "/v1",
                     "--db", db, "--session", "w1")) {
            t.await("the chat's greeting", s -> s.contains("Type /help for commands.") && s.getLast().equals("w1>"), WAIT);
            t.type("hello");
            assertThat(model.requested.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as(t.describe("the model call reached the server", t.screen())).isTrue();
            assertThat(t.screen()).as("the turn still waits on the model").doesNotContain("(turn ended: interrupted by the user)");

            long pressed = System.nanoTime();
            t.press("C-c");
            List<String> screen = t.await("the turn's end and the prompt after it",
                    s -> s.contains("(turn ended: interrupted by the user)") && s.getLast().equals("w1>"), WAIT);
            long tookMillis = (System.nanoTime() - pressed) / 1_000_000;
            assertThat(tookMillis).as("the prompt comes back at once (5 s: a generous bound for a loaded machine)").isLessThan(5_000);
            assertThat(model.awaitClosedByClient(WAIT.toSeconds())).as("the model call's connection is closed").isTrue();
            assertThat(screen).as("one Ctrl-C interrupts the turn and does not leave the chat")
                    .contains("w1> hello", "(interrupting the turn; Ctrl-C again to leave)")
                    .noneMatch(l -> l.startsWith("(second Ctrl-C"));

            t.type("/exit");
            assertThat(t.awaitExit(WAIT)).as(t.describe("the chat's exit status", t.screen())).isZero();
        }
        CliChild cli = new CliChild(dir);
        CliTest.Run show = cli.run("sessions", "show", "w1", "--db", db);
        assertThat(show.code()).as(show.err()).isZero();
        assertThat(show.out()).containsPattern("(?m)^state +idle at seq ");
        CliTest.Run export = cli.run("sessions", "export", "w1", "--db", db);
        assertThat(export.code()).as(export.err()).isZero();
        List<String> journal = export.out().lines().toList();
        assertThat(journal.getLast()).as("the journal's last event").contains("\"type\":\"TurnInterrupted\"")
                .contains("\"reason\":\"interrupted by the user\"");
    }

    @ParameterizedTest(name = "stream {0}")
    @ValueSource(booleans = {false, true})
    void theToolCallAndItsResultShowBeforeTheReply(boolean stream) throws Exception {
        String db = dir.resolve("chat.db").toString();
        List<String> args = new java.util.ArrayList<>(List.of("chat", "--model", "scripted", "--db", db, "--session", "s1"));
        if (stream) {
            args.add("--stream");
        }
        try (TmuxTerminal t = TmuxTerminal.start(dir, args.toArray(String[]::new))) {
            t.await("the chat's greeting", s -> s.contains("Type /help for commands.") && s.getLast().equals("s1>"), WAIT);
            t.type("what is 3*3");
            List<String> screen = t.await("the reply and the prompt after it",
                    s -> s.contains("assistant: 3*3 = 9") && s.getLast().equals("s1>"), WAIT);
            int asked = screen.indexOf("s1> what is 3*3");
            assertThat(asked).as(t.describe("the typed line", screen)).isNotNegative();
            assertThat(screen.subList(asked + 1, screen.size()))
                    .as(t.describe("what the turn shows, in order", screen))
                    .containsExactly("  -> calculate {\"expression\":\"3*3\"}", "  <- 9", "assistant: 3*3 = 9", "s1>");

            t.type("/exit");
            assertThat(t.awaitExit(WAIT)).as(t.describe("the chat's exit status", t.screen())).isZero();
        }
    }
}
