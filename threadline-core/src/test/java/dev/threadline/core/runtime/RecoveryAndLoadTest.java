package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryAndLoadTest {

    @Test
    void aTurnLeftRunningByADeadProcessIsRecordedAsFailedWhenLoaded() {
        StateStore store = new InMemoryStateStore();
        StateManager dead = new StateManager(store, Clock.systemUTC(), 100, 100);
        Threadline first = Threadline.builder().store(store).build();
        first.create("s1", SessionConfig.DEFAULT);
        dead.update("s1", CheckpointSource.INPUT, "c", s -> List.of(new Event.UserMessageReceived(Message.user("go"))));
        Message ask = Message.assistant(List.of(new ContentBlock.ToolUse("t1", "slow", TestSkills.json("{}")),
                new ContentBlock.ToolUse("t2", "slow", TestSkills.json("{}"))), StopReason.TOOL_USE, Usage.ZERO);
        dead.update("s1", CheckpointSource.LOOP, "c", s -> List.of(new Event.AssistantMessageReceived(ask),
                new Event.ToolCallStarted("t1", "slow"), new Event.ToolCallStarted("t2", "slow")));
        dead.handleToolResult("s1", "c", new Event.ToolCallCompleted("t1", "finished before the crash", false), List.of());
        // the process dies here: t2 was running

        StateManager restarted = new StateManager(store, Clock.systemUTC(), 100, 100);
        State s = restarted.get("s1");

        assertThat(s.isIdle()).isTrue();
        assertThat(s.pending()).isEmpty();
        List<ContentBlock.ToolResult> results = s.messages().get(2).toolResults();
        assertThat(results.get(0).content()).isEqualTo("finished before the crash");
        assertThat(results.get(1).isError()).isTrue();
        assertThat(results.get(1).content()).contains("process stopped while this tool call was running");
        assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        List<StoredEvent> journal = store.readOwn("s1", 1, Long.MAX_VALUE);
        assertThat(journal.get(journal.size() - 1).event()).isInstanceOf(Event.TurnInterrupted.class);
        assertThat(journal.get(journal.size() - 1).source()).isEqualTo(CheckpointSource.SYSTEM);
    }

    @Test
    void loadingFromSnapshotsGivesExactlyTheStateOfAFullReplay() {
        StateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).snapshotEvery(7).skill(TestSkills.echo())
                .model(dev.threadline.core.llm.ScriptedModel.of(req -> {
                    Message last = req.messages().get(req.messages().size() - 1);
                    return last.toolResults().isEmpty()
                            ? TestSkills.toolCall("t" + req.messages().size(), "echo", "{\"text\":\"x\"}")
                            : TestSkills.text("done");
                })).build()) {
            Session s = tl.create("s1", SessionConfig.DEFAULT);
            for (int i = 0; i < 12; i++) {
                s.submit("turn " + i);
                s.update(Counters.INCREMENT);
            }
            State live = s.state();
            tl.states().evict("s1");
            State loaded = s.state();
            State replayed = Reducer.fold(store.readOwn("s1", 1, Long.MAX_VALUE));

            assertThat(store.latestSnapshot("s1", Long.MAX_VALUE)).isPresent();
            assertThat(loaded).isEqualTo(live);
            assertThat(replayed).isEqualTo(live);
            for (long seq = 1; seq <= live.seq(); seq += 5) {
                long at = seq;
                assertThat(tl.states().stateAt("s1", at))
                        .isEqualTo(Reducer.fold(store.readOwn("s1", 1, at)));
            }
        }
    }

    @Test
    void idleSessionsLeaveMemoryAndReloadExactly() {
        try (Threadline tl = Threadline.builder().cacheCapacity(2).snapshotEvery(3).build()) {
            for (int i = 0; i < 5; i++) {
                Session s = tl.create("s" + i, SessionConfig.DEFAULT);
                for (int k = 0; k <= i; k++) {
                    s.update(Counters.INCREMENT);
                }
            }
            assertThat(tl.states().cachedSessions()).isLessThanOrEqualTo(2);
            for (int i = 0; i < 5; i++) {
                assertThat(Counters.value(tl.open("s" + i).state())).isEqualTo(i + 1);
                assertThat(tl.states().cachedSessions()).isLessThanOrEqualTo(2);
            }
        }
    }
}
