package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Typed state edits: each is one StateEdited step with who and why; an edit that would break an invariant writes nothing. */
class StateEditsTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(HumanSkills.model())
            .skill(HumanSkills.pay(HumanSkills.runs())).build();

    @AfterEach
    void close() {
        tl.close();
    }

    private Session session() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("hello");
        return s;
    }

    @Test
    void variablesOfEveryJournalledScopeAndMessagesAreEditedInOneStepWithWhoAndWhy() {
        Session s = session();
        int steps = s.history().checkpoints().size();
        Commit c = s.edit("ops@example.com", "fix the plan", List.of(Edit.set("plan", TextNode.valueOf("B")), new Edit.SetVariable(VariableScope.USER, "tz", TextNode.valueOf("UTC")), new Edit.SetVariable(VariableScope.APP, "limit", IntNode.valueOf(3)), Edit.append(Message.system("The user prefers short answers.")), Edit.append(Message.assistantText("(operator note) plan B is on."))));

        assertThat(c.events()).singleElement().satisfies(e -> {
            assertThat(e.source()).isEqualTo(CheckpointSource.EDIT);
            assertThat(e.event()).isInstanceOfSatisfying(Event.StateEdited.class, ed -> {
                assertThat(ed.author()).isEqualTo("ops@example.com");
                assertThat(ed.reason()).isEqualTo("fix the plan");
            });
        });
        assertThat(s.history().checkpoints()).hasSize(steps + 1);
        State st = s.state();
        assertThat(st.isIdle()).isTrue();
        assertThat(st.variable("plan")).isEqualTo(TextNode.valueOf("B"));
        assertThat(s.variables(VariableScope.USER)).containsEntry("tz", TextNode.valueOf("UTC"));
        assertThat(s.variables(VariableScope.APP)).containsEntry("limit", IntNode.valueOf(3));
        assertThat(st.messages()).extracting(Message::text).endsWith("The user prefers short answers.", "(operator note) plan B is on.");

        s.edit("ops", "undo", List.of(Edit.remove("plan"), new Edit.RemoveVariable(VariableScope.USER, "tz")));
        assertThat(s.state().variable("plan")).isNull();
        assertThat(s.variables(VariableScope.USER)).doesNotContainKey("tz");
        assertThat(s.submit("go on").reply()).isEqualTo("ack go on");
        assertThat(TranscriptValidator.violations(s.state().messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        State live = s.state();
        Engines.evict(tl, "s1");
        assertThat(s.state()).as("reloaded from the journal").isEqualTo(live);
    }

    private void assertRefused(Session s, Executable edit, String reason) {
        List<StoredEvent> before = s.history().journal();
        assertThatThrownBy(edit::execute).isInstanceOf(InvalidEventException.class).hasMessageContaining(reason);
        assertThat(s.history().journal()).isEqualTo(before);
    }

    @Test
    void editsThatWouldBreakAnInvariantAreRefusedWithTheReasonAndWriteNothing() {
        Session s = session();
        Message withCall = Message.assistant(List.of(new ContentBlock.ToolUse("x1", "pay", TestSkills.json("{\"amount\":1}"))),
                StopReason.TOOL_USE, Usage.ZERO);

        assertRefused(s, () -> s.edit("ops", "", List.of(Edit.append(withCall))), "outside a turn would leave the calls unanswered");
        assertRefused(s, () -> s.edit("ops", "", List.of(Edit.append(Message.toolResults(List.of(new ContentBlock.ToolResult("x1", "ok", false)))))),
                "cannot be appended by hand");
        assertRefused(s, () -> s.edit("ops", "", List.of(new Edit.SetVariable(VariableScope.TEMP, "t", IntNode.valueOf(1)))),
                "temp variables live only inside a turn");
        assertRefused(s, () -> s.edit("ops", "", List.of(Edit.append(Message.user("  ")))), "blank text");
        assertRefused(s, () -> s.edit("ops", "", List.of(Edit.set("ok", IntNode.valueOf(1)), Edit.append(withCall))), "edit 2 of 2");
        assertThat(s.state().variable("ok")).as("a refused step applies none of its edits").isNull();
    }

    @Test
    void editsAreRefusedWhileATurnWaitsForApprovalAndWhileOneRuns() {
        Session s = session();
        s.submit("pay 3");
        assertRefused(s, () -> s.edit("ops", "", List.of(Edit.set("a", IntNode.valueOf(1)))), "the session is awaiting_approval");
        s.deny("p3", "no");

        Engines.update(tl, "s1", CheckpointSource.INPUT, st -> List.of(Engines.user("a turn left running")));
        assertThatThrownBy(() -> Engines.update(tl, "s1", CheckpointSource.EDIT,
                st -> List.of(new Event.StateEdited("ops", "", List.of(Edit.set("a", IntNode.valueOf(1)))))))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("the session is running");
    }

    @Test
    void anEditOfThePastIsARewindThenAnEditOnTheNewBranchAndTheOldBranchStaysAsItWas() {
        Session s = session();
        long before = s.state().seq();
        s.submit("second");
        Session branch = s.rewind(before);
        branch.edit("ops", "what the user meant", List.of(Edit.append(Message.user("I meant the third option"))));

        assertThat(branch.state().messages()).extracting(Message::text).containsExactly("hello", "ack hello", "I meant the third option");
        assertThat(s.state().messages()).extracting(Message::text).containsExactly("hello", "ack hello", "second", "ack second");
    }

    @Test
    void aRepeatedEditCommandIdIsAppliedOnce() {
        Session s = session();
        s.with(CommandOptions.builder().commandId("e-1").build()).edit("ops", "x", List.of(Edit.append(Message.system("note"))));
        s.with(CommandOptions.builder().commandId("e-1").build()).edit("ops", "x", List.of(Edit.append(Message.system("note"))));
        assertThat(s.state().messages()).extracting(Message::text).containsOnlyOnce("note");
    }
}
