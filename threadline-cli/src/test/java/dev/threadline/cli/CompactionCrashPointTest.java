package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 5, the crash point {@code compaction.before-append}, on SQLite (and PostgreSQL and Redis
 * with {@code -Dthreadline.crashBackends=all}): a
 * {@code threadline chat} that compacts ({@code /compact}) halts once the summary is made and before it
 * is appended. The session then holds no compaction and its journal is whole (seqs gapless, turns ended,
 * transcript valid, judged by the history checker); the same chat run again on the session compacts and
 * answers.
 */
class CompactionCrashPointTest {
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aChatHaltedBetweenTheSummaryAndItsAppendKeepsAWholeJournalAndCompactsWhenRunAgain() {
        haltedAndRunAgain("sqlite:" + dir.resolve("c.db"));
        if (!LifecycleCrashPointsTest.allBackends()) {
            return;
        }
        PgServer.shared().createDatabase("compaction_crash");
        try (RedisProcess redis = RedisProcess.start(List.of())) {
            haltedAndRunAgain(PgServer.shared().url("compaction_crash"));
            haltedAndRunAgain(redis.url());
        }
    }

    private void haltedAndRunAgain(String url) {
        String[] chat = {"chat", "--model", "scripted", "--store", url, "--session", "s1"};
        CliTest.Run first = new CliChild(dir).run(new String[] {"what is 2+2", "note buy milk", "what is 3*3", "/exit"}, chat);
        assertThat(first.code()).as(url + ": " + first.err()).isZero();

        CliChild armed = new CliChild(dir, "-D" + CrashPoint.PROPERTY + "=" + CrashPoint.COMPACTION_BEFORE_APPEND.wireName());
        CliTest.Run halted = armed.run(new String[] {"/compact", "/exit"}, chat);
        assertThat(halted.code()).as(url + ": " + halted.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(halted.err()).contains("crash point compaction.before-append reached");
        List<StoredEvent> afterHalt = journal(url);
        assertThat(afterHalt).as(url + ": no compaction was appended").noneMatch(e -> e.event() instanceof Event.ContextCompacted);
        HistoryChecker.verifyJournals(Map.of("s1", afterHalt));

        CliTest.Run again = new CliChild(dir).run(new String[] {"/compact", "what is (2+3)*4", "/exit"}, chat);
        assertThat(again.code()).as(url + ": " + again.err()).isZero();
        assertThat(again.out()).contains("= 20");
        List<StoredEvent> last = journal(url);
        assertThat(last).as(url + ": compacted when run again").anyMatch(e -> e.event() instanceof Event.ContextCompacted);
        assertThat(last.subList(0, afterHalt.size())).as(url + ": what the halted run left is kept as it was").isEqualTo(afterHalt);
        HistoryChecker.verifyJournals(Map.of("s1", last));
    }

    private static List<StoredEvent> journal(String url) {
        try (Threadline tl = Threadline.builder().store(StateStores.open(url)).model(ScriptedModel.demo()).build()) {
            return tl.tenant("default").open("s1").history().journal();
        }
    }
}
