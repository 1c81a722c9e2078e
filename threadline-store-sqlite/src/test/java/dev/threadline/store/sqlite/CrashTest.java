package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.Threadline;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a JVM running scripted conversations with SIGKILL at 20 random moments. After each kill: no
 * acknowledged step is missing, journals have no gap or duplicate, every transcript is valid, and
 * tool calls that were running are recorded as failed with a clear reason.
 */
class CrashTest {
    private static final int KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void acknowledgedStepsSurviveSigkillAndRunningToolCallsAreRecordedAsFailed() throws Exception {
        Path db = dir.resolve("crash.db");
        Random rnd = new Random(20261130);
        Map<String, Long> acked = new HashMap<>();
        int recoveredCalls = 0;
        for (int run = 0; run < KILLS; run++) {
            Process child = start(db, run);
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            // kill after a random number of acknowledged commits; on odd runs, right after a step that started tools
            int target = 5 + rnd.nextInt(60);
            boolean afterToolStart = run % 2 == 1;
            int seen = 0;
            String line;
            while ((line = out.readLine()) != null) {
                if (!line.startsWith("ACK ")) {
                    continue;
                }
                String[] p = line.split(" ");
                acked.merge(p[1], Long.parseLong(p[2]), Math::max);
                seen++;
                if (seen >= target && (!afterToolStart || Boolean.parseBoolean(p[3]))) {
                    break;
                }
            }
            assertThat(line).as("run %d: the child stopped before it was killed; see its stderr", run).isNotNull();
            child.destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            recoveredCalls += verify(db, acked, run);
        }
        assertThat(recoveredCalls).as("kills that hit running tool calls").isPositive();
    }

    /** Checks the database after a kill; returns how many running tool calls were recorded as failed. */
    private int verify(Path db, Map<String, Long> acked, int run) {
        int recovered = 0;
        // the scripted demo model answers the turn that closes the dead process's (no silent default since ADR 0027)
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).model(ScriptedModel.demo()).build()) {
            for (Map.Entry<String, Long> a : acked.entrySet()) {
                Session s = tl.defaultTenant().open(a.getKey());
                s.submit("hello after the kill"); // a command takes the dead process's lease and closes the turn it left running first
                State st = s.state();
                List<StoredEvent> journal = s.history().journal();
                assertThat(journal.size()).as("run %d, %s: acknowledged seq %d is there", run, a.getKey(), a.getValue())
                        .isGreaterThanOrEqualTo((int) (long) a.getValue());
                for (int i = 0; i < journal.size(); i++) {
                    assertThat(journal.get(i).seq()).as("run %d, %s: no gap, no duplicate", run, a.getKey()).isEqualTo(i + 1);
                }
                assertThat(st.isIdle()).isTrue();
                assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW))
                        .as("run %d, %s", run, a.getKey()).isEmpty();
                Set<String> started = new HashSet<>();
                Set<String> ended = new HashSet<>();
                for (StoredEvent e : journal) {
                    if (e.event() instanceof Event.ToolCallStarted t) {
                        started.add(t.toolUseId());
                    } else if (e.event() instanceof Event.ToolCallEnded t) {
                        assertThat(ended.add(t.toolUseId())).as("one result per call").isTrue();
                        if (t instanceof Event.ToolCallFailed f && f.reason().contains("stopped (crash, kill or a stall past its lease)")) {
                            recovered++;
                        }
                    }
                }
                assertThat(ended).as("run %d, %s: every started call has a result", run, a.getKey()).containsAll(started);
            }
        }
        return recovered;
    }

    private static Process start(Path db, int run) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), db.toString(), String.valueOf(run)));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
