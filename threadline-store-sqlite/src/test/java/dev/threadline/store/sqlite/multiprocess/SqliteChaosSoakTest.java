package dev.threadline.store.sqlite.multiprocess;

import dev.threadline.harness.process.ChaosSoak;
import dev.threadline.harness.process.Fleet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 6 on SQLite: {@link ChaosSoak} with two nodes on one file (no failover: an embedded
 * database has none), SIGSTOP and SIGKILL cycles for {@code threadline.soakSeconds} (default 90 s: the
 * default suite's share of the 5-minute soak; {@code ./test soak} runs 1,200 s), resources sampled every
 * {@code threadline.soakSampleSeconds} (default 20). Writes {@code soak.csv} and {@code soak.svg} under
 * {@code target/soak/sqlite}.
 */
class SqliteChaosSoakTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed run leaves its database and the children's stderr
    Path dir;

    @Test
    void twoNodesStoppedAndKilledForMinutesViolateNoHistoryAndLeakNothing() throws Exception {
        Path db = dir.resolve("soak.db");
        try (Fleet fleet = new Fleet(dir, "sqlite:" + db)) {
            ChaosSoak.run(fleet, new ChaosSoak.Settings("SQLite", List.of("p0", "p1", "p2"), 2,
                    Duration.ofSeconds(Integer.getInteger("threadline.soakSeconds", 90)),
                    Duration.ofSeconds(Integer.getInteger("threadline.soakSampleSeconds", 20)), Duration.ZERO, null, null,
                    paused -> SqliteWriteLock.heldBy(paused.pid(), db), Path.of("target", "soak", "sqlite")));
        }
    }
}
