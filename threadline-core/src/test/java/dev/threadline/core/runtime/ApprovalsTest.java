package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Approvals: a call that needs one suspends the turn durably; approve runs it once and continues, deny
 * records an error result and counts it; bad approvals write nothing. A new runtime on the same store
 * stands for a restarted process.
 */
class ApprovalsTest {
    private final StateStore store = new InMemoryStateStore();
    private final List<JsonNode> runs = HumanSkills.runs();
    private final List<Threadline> runtimes = new ArrayList<>();

    private Threadline runtime() {
        Threadline tl = Threadline.builder().store(store).model(HumanSkills.model()).skill(HumanSkills.pay(runs))
                .skill(TestSkills.echo()).snapshotEvery(2).leaseLinger(Duration.ZERO).build();
        runtimes.add(tl);
        return tl;
    }

    @AfterEach
    void close() {
        runtimes.forEach(Threadline::close);
    }

    private static void assertValid(State s) {
        assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void aCallThatNeedsApprovalSuspendsTheTurnAndRunsOnceWhenApprovedAfterARestart() {
        Threadline first = runtime();
        Session s = first.defaultTenant().create("s1", SessionConfig.DEFAULT);
        TurnResult r = s.submit("pay 7");
        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.AWAITING_APPROVAL);
        assertThat(r.reason()).startsWith("awaiting_approval").contains("p1 (pay)");
        assertThat(runs).isEmpty();
        assertThat(s.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
        assertThat(s.pendingApprovals()).singleElement().satisfies(p -> {
            assertThat(p.toolUseId()).isEqualTo("p1");
            assertThat(p.kind()).isEqualTo(PendingApproval.Kind.APPROVAL);
            assertThat(p.arguments().get("amount").asInt()).isEqualTo(7);
        });
        assertThat(s.history().journal()).extracting(e -> e.event().type())
                .contains("ApprovalRequested", "TurnSuspended").doesNotContain("ToolCallStarted");
        // the first runtime stays open but idle (its lease released): the store is shared, so closing it would close the store

        Session again = runtime().defaultTenant().open("s1");
        assertThat(again.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
        TurnResult done = again.approve("p1");

        assertThat(done.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(done.reply()).isEqualTo("done: paid 7");
        assertThat(runs).hasSize(1);
        State end = again.state();
        assertThat(end.isIdle()).isTrue();
        assertThat(again.pendingApprovals()).isEmpty();
        assertValid(end);
    }

    @Test
    void aDenialIsAnErrorResultTheModelSeesAndIsCountedInStateAndItsSnapshot() {
        Threadline tl = runtime();
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay 7");
        TurnResult r = s.deny("p1", "too expensive");

        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(r.reply()).isEqualTo("done: denied by the user: too expensive");
        assertThat(runs).isEmpty();
        State st = s.state();
        assertThat(st.permissionDenials()).isEqualTo(1);
        assertThat(st.messages().get(2).toolResults()).containsExactly(
                new ContentBlock.ToolResult("p1", "denied by the user: too expensive", true));
        assertValid(st);

        Engines.evict(tl, "s1"); // reloaded from a snapshot (every 2 events) and the tail
        assertThat(s.state().permissionDenials()).isEqualTo(1);
        assertThat(store.latestSnapshot(Engines.key("s1"), Long.MAX_VALUE)).hasValueSatisfying(
                snap -> assertThat(snap.permissionDenials()).isEqualTo(1));
        assertThat(s.history().stateAt(st.seq())).isEqualTo(st);
    }

    @Test
    void invalidEditedArgumentsAreRefusedWithTheSchemaProblemAndWriteNothing() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay 7");
        List<StoredEvent> before = s.history().journal();

        assertThatThrownBy(() -> s.approve("p1", TestSkills.json("{\"amount\":1000}")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("invalid arguments").hasMessageContaining("amount")
                .hasMessageContaining("the call still waits");
        assertThat(s.history().journal()).isEqualTo(before);
        assertThat(runs).isEmpty();
        assertThat(s.state().status()).isEqualTo(SessionStatus.AWAITING_APPROVAL);
    }

    @Test
    void approvedEditedArgumentsAreWhatRunsAndTheModelIsToldTheyWereEdited() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay 70");
        TurnResult r = s.approve("p1", TestSkills.json("{\"amount\":20}"));

        assertThat(runs).singleElement().satisfies(a -> assertThat(a.get("amount").asInt()).isEqualTo(20));
        assertThat(r.reply()).contains("edited arguments: {\"amount\":20}").endsWith("paid 20");
        assertThat(s.history().journal()).anySatisfy(e -> assertThat(e.event()).isEqualTo(
                new Event.ApprovalGiven("p1", TestSkills.json("{\"amount\":20}"))));
    }

    @Test
    void aSecondApprovalOrADenialOfAnAnsweredCallIsRefusedAndWritesNothing() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay 7");
        s.approve("p1");
        List<StoredEvent> before = s.history().journal();

        assertThatThrownBy(() -> s.approve("p1")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("call 'p1' does not await approval (it was answered already)");
        assertThatThrownBy(() -> s.deny("p1", "no")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> s.approve("nosuch")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no such call");
        assertThat(s.history().journal()).isEqualTo(before);
        assertThat(runs).hasSize(1);
    }

    @Test
    void aRepeatedApprovalCommandIdReturnsTheFirstOutcomeAndRunsNothingAgain() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay 7");
        TurnResult first = s.with(CommandOptions.builder().commandId("ok-1").build()).approve("p1");
        TurnResult again = s.with(CommandOptions.builder().commandId("ok-1").build()).approve("p1");

        assertThat(again).isEqualTo(first);
        assertThat(runs).hasSize(1);
    }

    @Test
    void aNewMessageWhileACallAwaitsApprovalDeniesItFirstAndTheTranscriptStaysValid() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay 7");
        TurnResult r = s.submit("never mind");

        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(r.reply()).isEqualTo("ack never mind");
        State st = s.state();
        assertThat(st.permissionDenials()).isEqualTo(1);
        assertThat(st.messages().get(2).toolResults().get(0).content())
                .isEqualTo("denied by the user: the user sent a new message instead");
        assertThat(runs).isEmpty();
        assertValid(st);
    }

    @Test
    void theSessionConfigCanRequireApprovalForAToolByNameAndOtherCallsOfTheReplyRunFirst() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT.withRequireApproval(List.of("echo")));
        TurnResult r = s.submit("pay and echo");

        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.AWAITING_APPROVAL);
        assertThat(s.pendingApprovals()).extracting(PendingApproval::toolUseId).containsExactly("p1", "e1");
        s.approve("e1");
        assertThat(s.state().status()).as("one call still waits").isEqualTo(SessionStatus.AWAITING_APPROVAL);
        TurnResult done = s.approve("p1");

        assertThat(done.reply()).isEqualTo("done: paid 5 + hi");
        assertValid(s.state());
    }

    @Test
    void aCallThatNeedsNoApprovalRunsBeforeTheTurnSuspendsForTheOther() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("pay and echo");

        State st = s.state();
        assertThat(st.pending()).filteredOn(p -> p.toolUseId().equals("e1")).singleElement()
                .satisfies(p -> assertThat(p.answered()).isTrue());
        assertThat(s.approve("p1").reply()).isEqualTo("done: paid 5 + hi");
    }
}
