package dev.threadline.store.sqlite.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.ClientChild;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.Line;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7, acceptance "idempotency across two processes": a command id submitted from process A and then
 * from process B (both alive, one SQLite file) appends once, and B gets A's result (outcome, reply, seq);
 * the same id with another text is refused as a conflict and appends nothing.
 */
class CrossProcessIdempotencyTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SESSION = "i1";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves its database and the children's stderr
    Path dir;

    @Test
    void theSameCommandIdFromTwoProcessesAppendsOnceAndReturnsTheFirstResult() {
        Map<String, Object> args = Map.of("sessions", SESSION, "skill", "slow", "ttlMillis", 1000, "waitMillis", 5000);
        try (Fleet fleet = new Fleet(dir, "sqlite:" + dir.resolve("idem.db"))) {
            ChildProcess a = fleet.start("A#1", ClientChild.class, args);
            ChildProcess b = fleet.start("B#1", ClientChild.class, args);

            String first = submit(a, "cmd-1", "work cmd-1");
            String again = submit(b, "cmd-1", "work cmd-1");
            assertThat(again).as("B's retry returns A's outcome, seq and reply").isEqualTo(first);
            assertThat(first).startsWith("COMPLETED ").endsWith(" done cmd-1");

            int from = b.lineCount();
            b.send("SUBMIT " + SESSION + " cmd-1 another text");
            Line end = b.awaitLine(from, "the end of the conflicting call", l -> l.startsWith("END "), WAIT);
            assertThat(end.text()).as("the same id with another command is refused").isEqualTo("END failed " + SESSION + " cmd-1");
            assertThat(b.lines().subList(from, end.index())).extracting(Line::text)
                    .anyMatch(l -> l.startsWith("CONFLICT cmd-1 "));

            fleet.quit(a);
            fleet.quit(b);
            List<StoredEvent> journal = fleet.journals("acme", List.of(SESSION)).get(SESSION);
            assertThat(journal).filteredOn(e -> e.event() instanceof Event.UserMessageReceived).hasSize(1);
            long seq = Long.parseLong(first.split(" ")[1]);
            assertThat(journal.get(journal.size() - 1).seq()).as("nothing appended after the first turn").isEqualTo(seq);
            HistoryChecker.of(fleet.history).verify(Map.of(SESSION, journal));
        }
    }

    /** Submits through a child and returns {@code <outcome> <seq> <reply>} of its RESULT line. */
    private static String submit(ChildProcess c, String cid, String text) {
        int from = c.lineCount();
        c.send("SUBMIT " + SESSION + " " + cid + " " + text);
        Line end = c.awaitLine(from, "the end of " + cid, l -> l.startsWith("END "), WAIT);
        assertThat(end.text()).as("%s in %s", cid, c.name()).startsWith("END ok ");
        Line r = c.awaitLine(from, "the result of " + cid, l -> l.startsWith("RESULT " + cid + " "), WAIT);
        return r.text().substring(("RESULT " + cid + " ").length());
    }
}
