package dev.threadline.core.runtime;

import dev.threadline.core.EngineAccess;

import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.error.LeaseHeldException;
import dev.threadline.core.error.LeaseLostException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryAndLoadTest {

    @Test
    void aTurnLeftRunningByAStalledOwnerIsSeenRunningByReadersAndClosedOnlyByTheNextLeaseHolder() {
        TestClock clock = new TestClock();
        StateStore store = new InMemoryStateStore(clock);
        Threadline dead = Threadline.builder().store(store).clock(clock).leaseTtl(Duration.ofSeconds(10)).build();
        dead.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Message ask = Message.assistant(List.of(new ContentBlock.ToolUse("t1", "slow", TestSkills.json("{}")),
                new ContentBlock.ToolUse("t2", "slow", TestSkills.json("{}"))), StopReason.TOOL_USE, Usage.ZERO);
        java.util.concurrent.CountDownLatch stalled = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CompletableFuture<Object> stalledCommand = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                Engines.inCommand(dead, "s1", c -> {
                    StateManager sm = EngineAccess.states(dead);
                    sm.update(Engines.key("s1"), CheckpointSource.INPUT, c, s -> List.of(new Event.UserMessageReceived(Message.user("go"))));
                    sm.update(Engines.key("s1"), CheckpointSource.LOOP, c, s -> List.of(new Event.AssistantMessageReceived(ask),
                            new Event.ToolCallStarted("t1", "slow"), new Event.ToolCallStarted("t2", "slow")));
                    sm.handleToolResult(Engines.key("s1"), c, new Event.ToolCallCompleted("t1", "finished before the stall", false), List.of());
                    stalled.countDown();
                    await(resume);
                    // a late result would be refused as no longer pending; any other write meets the fence
                    assertThat(sm.handleToolResult(Engines.key("s1"), c, new Event.ToolCallCompleted("t2", "too late", false),
                            List.of()).accepted()).isFalse();
                    return sm.update(Engines.key("s1"), CheckpointSource.EDIT, c, Counters.INCREMENT);
                }));
        await(stalled);
        // the owner stalls here (never closes, never renews): t2 was running
        try (Threadline other = Threadline.builder().store(store).clock(clock).leaseWait(Duration.ZERO).build()) {
            Session s = other.defaultTenant().open("s1");
            long head = store.head(Engines.key("s1"));

            State seen = s.state();
            s.history().checkpoints();
            s.history().journal();
            assertThat(seen.isIdle()).as("a reader sees the running turn as running").isFalse();
            assertThat(seen.pending()).extracting(p -> p.toolUseId()).containsExactly("t1", "t2");
            assertThat(store.head(Engines.key("s1"))).as("reads never write").isEqualTo(head);
            assertThatThrownBy(() -> Engines.update(s, Counters.INCREMENT)).isInstanceOf(LeaseHeldException.class)
                    .hasMessageContaining("is held by process " + ProcessHandle.current().pid());
            assertThat(store.head(Engines.key("s1"))).isEqualTo(head);

            clock.advance(Duration.ofSeconds(11)); // the stalled owner's lease expires
            Engines.update(s, Counters.INCREMENT);

            State after = s.state();
            assertThat(after.isIdle()).isTrue();
            assertThat(after.pending()).isEmpty();
            List<ContentBlock.ToolResult> results = after.messages().get(2).toolResults();
            assertThat(results.get(0).content()).isEqualTo("finished before the stall");
            assertThat(results.get(1).isError()).isTrue();
            assertThat(results.get(1).content()).contains("stopped (crash, kill or a stall past its lease)");
            assertThat(TranscriptValidator.violations(after.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
            List<StoredEvent> journal = store.readOwn(Engines.key("s1"), 1, Long.MAX_VALUE);
            assertThat(journal).filteredOn(e -> e.event() instanceof Event.TurnInterrupted).singleElement()
                    .satisfies(e -> assertThat(e.source()).isEqualTo(CheckpointSource.SYSTEM));
            assertThat(Counters.value(after)).isEqualTo(1);
            resume.countDown();
            assertThat(stalledCommand).as("the stalled owner's next append is refused by fencing")
                    .failsWithin(Duration.ofSeconds(30)).withThrowableThat().havingRootCause().isInstanceOf(LeaseLostException.class);
            assertThat(store.readOwn(Engines.key("s1"), 1, Long.MAX_VALUE)).isEqualTo(journal);
        }
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
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            for (int i = 0; i < 12; i++) {
                s.submit("turn " + i);
                Engines.update(s, Counters.INCREMENT);
            }
            State live = s.state();
            Engines.evict(tl, "s1");
            State loaded = s.state();
            State replayed = Reducer.fold(store.readOwn(Engines.key("s1"), 1, Long.MAX_VALUE));

            assertThat(store.latestSnapshot(Engines.key("s1"), Long.MAX_VALUE)).isPresent();
            assertThat(loaded).isEqualTo(live);
            assertThat(replayed).isEqualTo(live);
            for (long seq = 1; seq <= live.seq(); seq += 5) {
                long at = seq;
                assertThat(EngineAccess.states(tl).stateAt(Engines.key("s1"), at))
                        .isEqualTo(Reducer.fold(store.readOwn(Engines.key("s1"), 1, at)));
            }
        }
    }

    @Test
    void idleSessionsLeaveMemoryAndReloadExactly() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).cacheCapacity(2).snapshotEvery(3).build()) {
            for (int i = 0; i < 5; i++) {
                Session s = tl.defaultTenant().create("s" + i, SessionConfig.DEFAULT);
                for (int k = 0; k <= i; k++) {
                    Engines.update(s, Counters.INCREMENT);
                }
            }
            assertThat(EngineAccess.states(tl).cachedSessions()).isLessThanOrEqualTo(2);
            for (int i = 0; i < 5; i++) {
                assertThat(Counters.value(tl.defaultTenant().open("s" + i).state())).isEqualTo(i + 1);
                assertThat(EngineAccess.states(tl).cachedSessions()).isLessThanOrEqualTo(2);
            }
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            if (!latch.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for the other side");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
