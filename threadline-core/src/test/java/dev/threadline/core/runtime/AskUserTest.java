package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
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

/** The built-in ask_user: the question suspends the turn durably; the answer becomes the call's result. */
class AskUserTest {
    private final StateStore store = new InMemoryStateStore();
    private final List<Threadline> runtimes = new ArrayList<>();

    private Threadline runtime() {
        Threadline tl = Threadline.builder().store(store).model(HumanSkills.model()).skill(Builtins.askUser())
                .skill(HumanSkills.pay(HumanSkills.runs())).leaseLinger(Duration.ZERO).build();
        runtimes.add(tl);
        return tl;
    }

    @AfterEach
    void close() {
        runtimes.forEach(Threadline::close);
    }

    @Test
    void aQuestionSuspendsTheTurnAndTheAnswerFromAnotherRuntimeCompletesIt() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        TurnResult r = s.submit("ask");

        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.AWAITING_INPUT);
        assertThat(s.state().status()).isEqualTo(SessionStatus.AWAITING_INPUT);
        assertThat(s.pendingApprovals()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(PendingApproval.Kind.QUESTION);
            assertThat(p.question()).isEqualTo("which colour?");
        });
        assertThat(s.history().journal()).extracting(StoredEvent::event)
                .contains(new Event.InputRequested("q1", "which colour?"));

        Session again = runtime().defaultTenant().open("s1"); // a restarted process
        assertThat(again.state()).isEqualTo(s.state());
        TurnResult done = again.answer("q1", "blue");

        assertThat(done.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(done.reply()).isEqualTo("done: blue");
        State st = again.state();
        assertThat(st.messages().get(2).toolResults()).containsExactly(new ContentBlock.ToolResult("q1", "blue", false));
        assertThat(st.permissionDenials()).isZero();
        assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void aQuestionCannotBeApprovedNorAnApprovalAnsweredNorABlankAnswerGivenAndNothingIsWritten() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("ask");
        List<StoredEvent> before = s.history().journal();

        assertThatThrownBy(() -> s.approve("q1")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("does not await approval (it awaits an answer)");
        assertThatThrownBy(() -> s.answer("q1", "  ")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("must not be blank");
        assertThatThrownBy(() -> s.answer("zz", "x")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("waiting for an answer: [q1]");
        assertThat(s.history().journal()).isEqualTo(before);
    }

    @Test
    void aNewMessageInsteadOfAnAnswerFailsTheQuestionAndRunsTheMessage() {
        Session s = runtime().defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("ask");
        TurnResult r = s.submit("forget it");

        assertThat(r.reply()).isEqualTo("ack forget it");
        State st = s.state();
        assertThat(st.messages().get(2).toolResults().get(0).isError()).isTrue();
        assertThat(st.permissionDenials()).isZero();
        assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }
}
