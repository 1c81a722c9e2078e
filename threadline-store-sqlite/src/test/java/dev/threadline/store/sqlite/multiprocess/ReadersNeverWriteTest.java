package dev.threadline.store.sqlite.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.history.Outcome;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.ClientChild;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseTestModel;
import dev.threadline.harness.process.ReaderChild;
import dev.threadline.harness.process.Line;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7, acceptance 1: two live JVMs on one SQLite file. Process A runs turns whose tool call blocks
 * until the test opens its gate (a file); process B meanwhile loops over state, checkpoints, journal and
 * the session list, and submits turns of its own. While A is inside a tool call, B sees the turn running
 * with its pending call, and B's submits fail with a "held by" error naming A. No turn of A is ever
 * marked interrupted, the journal is gapless and the transcript valid: reads never write.
 */
class ReadersNeverWriteTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int TURNS = 6;
    private static final String SESSION = "r1";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves its database and the children's stderr
    Path dir;

    @Test
    void aReaderInAnotherProcessNeverInterruptsARunningTurn() throws Exception {
        Path gates = Files.createDirectories(dir.resolve("gates"));
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("shared.db"))) {
            ChildProcess a = fleet.start("A#1", ClientChild.class, Map.of("sessions", SESSION, "skill", "gate",
                    "gates", gates, "ttlMillis", 1000, "waitMillis", 20_000));
            ChildProcess b = fleet.start("B#1", ReaderChild.class, Map.of("sessions", SESSION, "submitEvery", 3,
                    "ttlMillis", 1000, "waitMillis", 200));

            for (int i = 0; i < TURNS; i++) {
                String cid = "a-" + i;
                int aFrom = a.lineCount();
                a.send("SUBMIT " + SESSION + " " + cid + " work " + cid);
                a.awaitLine(aFrom, "A inside the gate of " + cid,
                        ("GATE " + SESSION + " " + LeaseTestModel.toolUseId(cid))::equals, WAIT);

                int bFrom = b.lineCount();
                b.awaitLine(bFrom, "a read by B that shows A's turn running with its pending call",
                        l -> l.startsWith("READ ") && l.split(" ")[2].equals("RUNNING") && l.split(" ")[3].equals("1"), WAIT);
                Line held = b.awaitLine(bFrom, "a submit of B refused while A holds the lease", l -> l.startsWith("HELD "), WAIT);
                assertThat(held.text()).as("the refusal names the holder, process A").contains("held by")
                        .contains(Long.toString(a.pid()));

                Files.createFile(gates.resolve(LeaseTestModel.toolUseId(cid)));
                Line result = a.awaitLine(aFrom, "the result of " + cid, l -> l.startsWith("RESULT " + cid + " "), WAIT);
                assertThat(result.text()).as("A's turn %s completed", cid).startsWith("RESULT " + cid + " COMPLETED ")
                        .endsWith(" done " + cid);
            }
            fleet.quit(b);
            fleet.quit(a);

            Map<String, List<StoredEvent>> journals = fleet.journals("acme", List.of(SESSION));
            List<StoredEvent> journal = journals.get(SESSION);
            assertThat(journal).as("no turn was ever recorded as interrupted, no call as failed")
                    .noneMatch(e -> e.event() instanceof Event.TurnInterrupted || e.event() instanceof Event.ToolCallFailed);
            assertThat(fleet.history.operations()).filteredOn(op -> op.process().equals("A#1"))
                    .hasSize(TURNS).allMatch(op -> op.outcome() == Outcome.OK);
            assertThat(fleet.history.count(Outcome.FAILED)).as("B's submits refused while A held the lease").isPositive();
            assertReadsNeverWentBack(b);
            HistoryChecker.of(fleet.history).verify(journals);
        }
    }

    /** B's reads see the session move forward only: a read never shows an older seq than an earlier one. */
    private static void assertReadsNeverWentBack(ChildProcess b) {
        long lastSeq = 0;
        int reads = 0;
        for (Line l : b.lines()) {
            if (l.text().startsWith("READ ")) {
                String[] p = l.text().split(" ");
                long stateSeq = Long.parseLong(p[4]);
                long journalSize = Long.parseLong(p[5]);
                long journalLast = Long.parseLong(p[6]);
                assertThat(journalLast).as("B's read %s: the journal is gapless", p[1]).isEqualTo(journalSize);
                assertThat(stateSeq).as("B's read %s: state seq never goes back", p[1]).isGreaterThanOrEqualTo(lastSeq);
                lastSeq = stateSeq;
                reads++;
            }
        }
        assertThat(reads).as("B's read rounds").isGreaterThan(TURNS);
    }
}
