package dev.threadline.cli;

import dev.threadline.harness.servers.SilentServer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Line;
import dev.threadline.harness.process.Signals;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline chat --model openai:… --base-url …} as a child process against a model server that
 * accepts and never answers (issue 26, item 1): one SIGINT (Ctrl-C) cancels the model call (the server
 * sees the connection closed), the turn ends as interrupted, the chat answers the next line, and the
 * session is idle. The bounds are generous waits for conditions (the turn ends in milliseconds; the
 * model's HTTP timeout is ten minutes, so only the interrupt can end the call).
 */
class ChatInterruptsAWaitingModelTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void oneCtrlCCancelsTheModelCallAndTheChatGoesOn() throws Exception {
        try (SilentServer model = new SilentServer(false);
             ChildProcess c = ChildProcess.of(Main.class).name("chat")
                     .args("chat", "--model", "openai:test-model", "--base-url", model.url() + "/v1", "--stream",
                             "--db", dir.resolve("chat.db").toString(), "--session", "w1")
                     .stderr(dir.resolve("chat.err")).start()) {
            c.awaitPrefix("Type /help", WAIT);
            int from = c.lineCount();
            c.send("hello");
            assertThat(model.requested.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the model call reached the server").isTrue();

            long asked = System.nanoTime();
            Signals.send(c.pid(), "INT");
            Line ended = c.awaitLine(from, "the turn's end", l -> l.startsWith("(turn ended:"), WAIT);
            long tookMillis = (System.nanoTime() - asked) / 1_000_000;
            assertThat(ended.text()).contains("interrupted by the user");
            assertThat(tookMillis).as("the prompt comes back at once (5 s: a generous bound for a loaded machine)").isLessThan(5_000);
            assertThat(model.awaitClosedByClient(WAIT.toSeconds())).as("the model call's connection is closed").isTrue();

            c.send("/exit");
            assertThat(c.awaitExit(WAIT)).as(c.describe("exit code")).isZero();
            assertThat(c.lines()).extracting(Line::text).noneMatch(l -> l.startsWith("(second Ctrl-C"));
        }
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("chat.db"))).model(ScriptedModel.demo()).build()) {
            var s = tl.defaultTenant().open("w1");
            assertThat(s.state().status()).isEqualTo(SessionStatus.IDLE);
            List<StoredEvent> journal = s.history().journal();
            assertThat(journal.get(journal.size() - 1).event()).isEqualTo(new Event.TurnInterrupted("interrupted by the user"));
        }
    }
}
