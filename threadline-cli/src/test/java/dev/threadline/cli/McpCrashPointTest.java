package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5, the crash point {@code mcp.during-call}: a runtime whose turn calls a tool of a real MCP
 * server (npm's {@code server-everything} over stdio) halts once the server has answered and before the skill
 * hands the answer on. The journal then ends with the call started and no result; the next process on the
 * file closes that turn (the call gets an error result: whether it ran is not known to the journal) and
 * answers, and the history checker finds the whole journal valid. On SQLite; with
 * {@code -Dthreadline.crashBackends=all} on PostgreSQL and Redis too.
 */
class McpCrashPointTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aRuntimeHaltedWhileAnMcpServerAnswersLeavesAJournalTheNextProcessCloses() {
        Path script = Path.of("../threadline-mcp/src/test/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
                .toAbsolutePath().normalize();
        assertThat(Files.isRegularFile(script)).as("%s is missing: run `npm ci --prefix threadline-mcp/src/test/node`", script).isTrue();
        int runs = Integer.getInteger("threadline.crashRuns", 1); // the acceptance run: 3
        for (int run = 1; run <= runs; run++) {
            haltedAndClosed("sqlite:" + dir.resolve("mcp-" + run + ".db"), "sqlite-" + run, script);
        }
        if (!LifecycleCrashPointsTest.allBackends()) {
            return;
        }
        for (int run = 1; run <= runs; run++) {
            PgServer.shared().createDatabase("mcp_crash_" + run);
            haltedAndClosed(PgServer.shared().url("mcp_crash_" + run), "postgres-" + run, script);
            try (RedisProcess redis = RedisProcess.start(List.of())) {
                haltedAndClosed(redis.url(), "redis-" + run, script);
            }
        }
    }

    private void haltedAndClosed(String db, String name, Path script) {
        try (ChildProcess child = ChildProcess.of(McpCrashChild.class).name("mcp-crash")
                .jvmOptions("-D" + CrashPoint.PROPERTY + "=" + CrashPoint.MCP_DURING_CALL.wireName())
                .stderr(dir.resolve(name + ".err")).args(db, script.toString()).start()) {
            assertThat(child.awaitExit(Duration.ofSeconds(120))).as(child.stderrTail()).isEqualTo(CrashPoint.EXIT_CODE);
            assertThat(child.stderrTail()).contains("crash point mcp.during-call reached");
            assertThat(child.lines()).noneMatch(l -> l.text().startsWith("REPLY"));
        }
        List<StoredEvent> halted = journal(db);
        assertThat(halted.get(halted.size() - 1).event()).as("the journal ends with the call started, no result")
                .isInstanceOf(Event.ToolCallStarted.class);

        try (Threadline tl = Threadline.builder().store(StateStores.open(db)).model(McpCrashChild.model())
                .leaseTtl(Duration.ofSeconds(1)).build()) {
            assertThat(tl.defaultTenant().open("s1").submit("after the crash").reply()).isEqualTo("re: after the crash");
        }
        List<StoredEvent> last = journal(db);
        assertThat(last.subList(0, halted.size())).as("what the halted process wrote is kept as it was").isEqualTo(halted);
        assertThat(last).filteredOn(e -> e.event() instanceof Event.ToolCallEnded).as("the call closed with a result").hasSize(1);
        HistoryChecker.verifyJournals(Map.of("s1", last));
    }

    private static List<StoredEvent> journal(String db) {
        try (Threadline tl = Threadline.builder().store(StateStores.open(db)).model(McpCrashChild.model()).build()) {
            return tl.defaultTenant().open("s1").history().journal();
        }
    }
}
