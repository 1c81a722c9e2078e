package dev.threadline.core.runtime;

import dev.threadline.core.EngineAccess;

import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A process that stalls (or dies) after recording an approval request but before suspending the turn:
 * the process that takes the session over fails the call that was running and suspends the turn for
 * the waiting one, so the request survives and can be approved.
 */
class ApprovalRecoveryTest {

    @Test
    void theNextLeaseHolderSuspendsATurnLeftRunningWithACallWaitingAndItCanBeApproved() throws Exception {
        TestClock clock = new TestClock();
        StateStore store = new InMemoryStateStore(clock);
        List<JsonNode> runs = HumanSkills.runs();
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Message ask = Message.assistant(List.of(new ContentBlock.ToolUse("p1", "pay", TestSkills.json("{\"amount\":4}")),
                new ContentBlock.ToolUse("e1", "echo", TestSkills.json("{\"text\":\"x\"}"))), StopReason.TOOL_USE, Usage.ZERO);
        Threadline dead = Threadline.builder().store(store).clock(clock).leaseTtl(Duration.ofSeconds(10)).build();
        dead.defaultTenant().create("s1", SessionConfig.DEFAULT);
        CompletableFuture<Object> stalledCommand = CompletableFuture.supplyAsync(() -> Engines.inCommand(dead, "s1", c -> {
            StateManager sm = EngineAccess.states(dead);
            sm.update(Engines.key("s1"), CheckpointSource.INPUT, c, s -> List.of(Engines.user("pay and echo")));
            sm.update(Engines.key("s1"), CheckpointSource.LOOP, c, s -> List.of(new Event.AssistantMessageReceived(ask),
                    new Event.ApprovalRequested("p1", "pay", TestSkills.json("{\"amount\":4}")), new Event.ToolCallStarted("e1", "echo")));
            stalled.countDown();
            try {
                never.await(30, TimeUnit.SECONDS); // stalls while echo "runs"
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
        assertThat(stalled.await(30, TimeUnit.SECONDS)).isTrue();

        try (Threadline other = Threadline.builder().store(store).clock(clock).model(HumanSkills.model())
                .skill(HumanSkills.pay(runs)).skill(TestSkills.echo()).leaseWait(Duration.ZERO).build()) {
            Session s = other.defaultTenant().open("s1");
            assertThat(s.state().status()).as("seen running: its owner still holds the lease").isEqualTo(SessionStatus.RUNNING);
            clock.advance(Duration.ofSeconds(11));

            TurnResult r = s.approve("p1");

            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(runs).hasSize(1);
            State st = s.state();
            assertThat(st.messages().get(2).toolResults()).extracting(ContentBlock.ToolResult::toolUseId, ContentBlock.ToolResult::isError)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("p1", false), org.assertj.core.groups.Tuple.tuple("e1", true));
            assertThat(s.history().journal()).filteredOn(e -> e.event() instanceof Event.TurnSuspended).singleElement()
                    .satisfies(e -> assertThat(e.source()).isEqualTo(CheckpointSource.SYSTEM));
            assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        } finally {
            never.countDown();
            stalledCommand.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
            dead.close();
        }
    }
}
