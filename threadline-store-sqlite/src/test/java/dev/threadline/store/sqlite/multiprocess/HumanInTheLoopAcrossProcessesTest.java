package dev.threadline.store.sqlite.multiprocess;

import dev.threadline.harness.process.Fleet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.store.sqlite.SqliteStateStore;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.Line;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8's acceptance with real processes on one SQLite file ({@link HitlChild}): approvals and
 * questions answered from another JVM after the first one exited, double texting across two
 * processes, and a side effect run exactly once across a SIGKILL, a take-over, an approval and a
 * rewind, counted by the skills themselves in a runs file.
 */
class HumanInTheLoopAcrossProcessesTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final AtomicInteger tags = new AtomicInteger();

    private Map<String, Object> args() throws IOException {
        return Map.of("runs", dir.resolve("runs.txt"), "gates", Files.createDirectories(dir.resolve("gates")),
                "ttlMillis", 1000, "waitMillis", 20_000);
    }

    /** Sends a command with a fresh tag and returns what its RESULT or ERR line says after the tag. */
    private String call(ChildProcess c, String command, String session, String rest) {
        String tag = "t" + tags.incrementAndGet();
        int from = c.lineCount();
        c.send(command + " " + tag + " " + session + " " + rest);
        return reply(c, from, tag);
    }

    private static String reply(ChildProcess c, int from, String tag) {
        Line l = c.awaitLine(from, "the reply to " + tag, t -> t.startsWith("RESULT " + tag + " ") || t.startsWith("ERR " + tag + " "), WAIT);
        return (l.text().startsWith("ERR") ? "ERR " : "") + l.text().substring(l.text().indexOf(' ', l.text().indexOf(' ') + 1) + 1);
    }

    private <T> T read(String session, Function<Session, T> f) {
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(dir.resolve("hitl.db"))).model(HitlSkills.model()).build()) {
            return f.apply(tl.tenant("acme").open(session));
        }
    }

    private List<StoredEvent> journal(String session) {
        return read(session, s -> s.history().journal());
    }

    private void assertValid(String session) {
        State st = read(session, Session::state);
        assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.CHECKPOINT)).as(session).isEmpty();
    }

    private List<String> runs(String prefix) {
        return HitlSkills.runs(dir.resolve("runs.txt"), prefix);
    }

    @Test
    void anApprovalRequestedInOneJvmIsAnsweredFromTheNextAndTheCallRunsOnce() throws Exception {
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("hitl.db"))) {
            ChildProcess a = fleet.start("A#1", HitlChild.class, args());
            assertThat(call(a, "SUBMIT", "s1", "- pay 70")).startsWith("AWAITING_APPROVAL");
            fleet.quit(a);

            ChildProcess b = fleet.start("B#1", HitlChild.class, args());
            String id = call(b, "PENDING", "s1", "").substring("PENDING ".length()).trim();
            assertThat(id).isNotBlank().doesNotContain(",");
            List<StoredEvent> before = journal("s1");
            assertThat(call(b, "APPROVE", "s1", id + " {\"amount\":500}")).startsWith("ERR InvalidInputException").contains("amount");
            assertThat(journal("s1")).as("invalid edited arguments write nothing").isEqualTo(before);
            assertThat(runs("pay")).isEmpty();

            assertThat(call(b, "APPROVE", "s1", id)).isEqualTo("COMPLETED done: paid 70");
            assertThat(runs("pay")).containsExactly("pay s1/" + id + " 70");
            List<StoredEvent> approved = journal("s1");
            assertThat(call(b, "APPROVE", "s1", id)).startsWith("ERR InvalidInputException");
            assertThat(journal("s1")).as("a second approve writes nothing").isEqualTo(approved);

            assertThat(call(b, "SUBMIT", "s1", "- pay 30")).startsWith("AWAITING_APPROVAL");
            String second = call(b, "PENDING", "s1", "").substring("PENDING ".length()).trim();
            assertThat(call(b, "DENY", "s1", second + " too much")).startsWith("COMPLETED").contains("denied by the user: too much");
            assertThat(runs("pay")).as("a denied call never runs").hasSize(1);
            assertThat((int) read("s1", s -> s.state().permissionDenials())).isEqualTo(1);
            fleet.quit(b);
            assertValid("s1");
        }
    }

    @Test
    void aQuestionAskedInOneJvmIsAnsweredFromAnother() throws Exception {
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("hitl.db"))) {
            ChildProcess a = fleet.start("A#1", HitlChild.class, args());
            assertThat(call(a, "SUBMIT", "s2", "- ask")).startsWith("AWAITING_INPUT");
            fleet.quit(a);
            ChildProcess b = fleet.start("B#1", HitlChild.class, args());
            String id = call(b, "PENDING", "s2", "").substring("PENDING ".length()).trim();
            assertThat(call(b, "ANSWER", "s2", id + " blue")).startsWith("COMPLETED done: ").contains("blue");
            fleet.quit(b);
            assertValid("s2");
        }
    }

    /** Starts "slow" in {@code a} and returns once its gate call runs; the returned tag's reply comes later. */
    private String startSlow(ChildProcess a, String session) {
        String tag = "t" + tags.incrementAndGet();
        int from = a.lineCount();
        a.send("SUBMIT " + tag + " " + session + " - slow");
        a.awaitLine(from, "the gate call of " + tag, l -> l.startsWith("GATE " + session + " "), WAIT);
        return tag;
    }

    private void open(ChildProcess c, String session) throws IOException {
        String gate = c.lines().stream().map(Line::text).filter(l -> l.startsWith("GATE " + session + " ")).reduce((x, y) -> y).orElseThrow();
        Files.createFile(dir.resolve("gates").resolve(gate.split(" ")[2]));
    }

    @Test
    void eachDoubleTextingStrategyWorksAcrossTwoProcessesAndTranscriptsStayValid() throws Exception {
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("hitl.db"))) {
            ChildProcess a = fleet.start("A#1", HitlChild.class, args());
            ChildProcess b = fleet.start("B#1", HitlChild.class, args());
            call(a, "SUBMIT", "s3", "- hello");

            int from = a.lineCount();
            String running = startSlow(a, "s3");
            assertThat(call(b, "SUBMIT", "s3", "reject busy?")).startsWith("ERR SessionBusyException").contains("slow")
                    .contains("started at seq");
            open(a, "s3");
            assertThat(reply(a, from, running)).startsWith("COMPLETED done: ");

            from = a.lineCount();
            running = startSlow(a, "s3");
            assertThat(call(b, "SUBMIT", "s3", "interrupt stop it")).isEqualTo("COMPLETED ack stop it");
            assertThat(reply(a, from, running)).as("the turn in the other process").startsWith("INTERRUPTED");
            assertValid("s3");

            from = a.lineCount();
            running = startSlow(a, "s3");
            assertThat(call(b, "SUBMIT", "s3", "rollback instead")).isEqualTo("COMPLETED ack instead");
            assertThat(reply(a, from, running)).startsWith("INTERRUPTED");
            assertThat(journal("s3")).extracting(StoredEvent::event).filteredOn(Event.TurnRolledBack.class::isInstance).hasSize(1);
            List<String> texts = read("s3", s -> s.state().messages().stream().map(m -> m.text()).toList());
            assertThat(texts.subList(texts.size() - 3, texts.size())).as("the rolled back turn left the transcript")
                    .containsExactly("ack stop it", "instead", "ack instead");
            assertValid("s3");

            from = a.lineCount();
            running = startSlow(a, "s3");
            String tag = "t" + tags.incrementAndGet();
            int fromB = b.lineCount();
            b.send("SUBMIT " + tag + " s3 enqueue after it");
            open(a, "s3");
            assertThat(reply(a, from, running)).startsWith("COMPLETED done: ");
            assertThat(reply(b, fromB, tag)).isEqualTo("COMPLETED ack after it");
            fleet.quit(a);
            fleet.quit(b);
            assertValid("s3");
        }
    }

    @Test
    void aSideEffectRunsOnceAcrossACrashATakeOverAnApprovalAndARewind() throws Exception {
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("hitl.db"))) {
            ChildProcess a = fleet.start("A#1", HitlChild.class, args());
            call(a, "SUBMIT", "s4", "- hello");
            a.send("SUBMIT t0 s4 - charge");
            a.awaitLine(0, "the charge call", l -> l.startsWith("GATE s4 "), WAIT);
            fleet.kill(a); // SIGKILL during the call
            assertThat(runs("charge-start")).hasSize(1);

            ChildProcess b = fleet.start("B#1", HitlChild.class, args());
            assertThat(call(b, "SUBMIT", "s4", "- next")).isEqualTo("COMPLETED ack next");
            long beforePay = Long.parseLong(call(b, "HEAD", "s4", "").substring("HEAD ".length()).trim());
            assertThat(call(b, "SUBMIT", "s4", "- pay 20")).startsWith("AWAITING_APPROVAL");
            String id = call(b, "PENDING", "s4", "").substring("PENDING ".length()).trim();
            assertThat(call(b, "APPROVE", "s4", id)).isEqualTo("COMPLETED done: paid 20");
            fleet.quit(b);

            ChildProcess c = fleet.start("C#1", HitlChild.class, args());
            List<StoredEvent> journal = journal("s4");
            assertThat(call(c, "REWIND", "s4", beforePay + " noack")).startsWith("ERR UndoneEffectsException").contains("pay (" + id + ")");
            assertThat(journal("s4")).as("a refused rewind writes nothing").isEqualTo(journal);
            assertThat(call(c, "REWIND", "s4", beforePay + " ack")).startsWith("BRANCH ");
            assertThat(call(c, "COMPENSATE", "s4", Long.toString(beforePay))).isEqualTo("COMPENSATED 1");
            assertThat(call(c, "COMPENSATE", "s4", Long.toString(beforePay))).as("compensated once").isEqualTo("COMPENSATED 0");
            fleet.quit(c);

            assertThat(runs("charge-start")).as("the crashed call never ran again").hasSize(1);
            assertThat(runs("charge-done")).isEmpty();
            assertThat(runs("pay")).containsExactly("pay s4/" + id + " 20");
            assertThat(runs("undo")).containsExactly("undo s4/" + id);
            assertThat(journal("s4")).extracting(StoredEvent::event).filteredOn(Event.EffectCompensated.class::isInstance).hasSize(1);
            assertThat(journal("s4")).extracting(StoredEvent::event).filteredOn(Event.ToolCallStarted.class::isInstance)
                    .extracting(e -> ((Event.ToolCallStarted) e).name()).containsExactly("charge", "pay");
            assertValid("s4");
        }
    }
}
