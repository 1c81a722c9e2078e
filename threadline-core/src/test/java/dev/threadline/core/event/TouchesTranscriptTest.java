package dev.threadline.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.Compaction;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which events can change the transcript, the set that bounds replay on load: one case per kind, so that a new
 * kind (or a moved rule) shows up here.
 */
class TouchesTranscriptTest {
    private static final Message USER = Message.user("hi");

    @Test
    void messagesResultsPendingCallChangesRollbacksAndAppendingEditsTouchTheTranscript() {
        List<Event> touching = List.of(
                new Event.UserMessageReceived(USER),
                new Event.AssistantMessageReceived(Message.assistantText("hello")),
                new Event.ToolCallCompleted("t1", "ok", false),
                new Event.ToolCallFailed("t1", "boom"),
                new Event.ToolCallTimedOut("t1", 10),
                new Event.ApprovalRequested("t1", "shell", null),
                new Event.ApprovalGiven("t1", null),
                new Event.ApprovalDenied("t1", "no"),
                new Event.InputRequested("t1", "which?"),
                new Event.InputGiven("t1", "that"),
                new Event.TurnSuspended("awaiting_approval"),
                new Event.StateEdited("ops", "fix", List.of(Edit.append(USER))),
                new Event.TurnRolledBack(3, "s-side", 1, Map.of(), 0, new Compaction("", 0), "rollback"));
        assertThat(touching).allSatisfy(e -> assertThat(e.touchesTranscript()).as(e.type()).isTrue());
    }

    @Test
    void theOtherKindsDoNot() {
        List<Event> others = List.of(
                new Event.SessionCreated(SessionInfo.create("s1", SessionConfig.DEFAULT, Instant.EPOCH)),
                new Event.BranchCreated("s0", 1, "fork"),
                new Event.ToolCallStarted("t1", "shell"),
                new Event.VariablesChanged(VariableScope.SESSION, Map.of("a", JsonNodeFactory.instance.numberNode(1)), List.of()),
                new Event.TurnCompleted("end_turn"),
                new Event.TurnInterrupted("interrupt"),
                new Event.ContextCompacted("summary", 1),
                new Event.Cleared(),
                new Event.StateEdited("ops", "fix", List.of(Edit.set("a", JsonNodeFactory.instance.numberNode(1)))),
                new Event.EffectCompensated("t1", "shell", "undone", false));
        assertThat(others).allSatisfy(e -> assertThat(e.touchesTranscript()).as(e.type()).isFalse());
    }
}
