package dev.threadline.core.state;

import dev.threadline.core.internal.state.Reducer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression: the reducer looked for a reused tool_use id only in the last 64 messages, so a reply
 * reusing an id 84 messages later was accepted, and from then on every turn failed the transcript
 * validator (which checks the whole transcript): the session was unusable for good.
 */
class ToolUseIdsMustBeUniqueOverTheWholeHistoryTest {

    static Message toolCall(String id) {
        return Message.assistant(List.of(new ContentBlock.ToolUse(id, "echo", Json.parse("{}", "input"))),
                StopReason.TOOL_USE, Usage.ZERO);
    }

    /** A turn with one tool call {@code id} answered, then one text turn per pair in {@code textTurns}: 4 + 2 * textTurns messages. */
    static State history(String id, int textTurns) {
        State s = State.EMPTY;
        s = Reducer.apply(s, new Event.UserMessageReceived(Message.user("go")));
        s = Reducer.apply(s, new Event.AssistantMessageReceived(toolCall(id)));
        s = Reducer.apply(s, new Event.ToolCallCompleted(id, "done", false));
        s = Reducer.apply(s, new Event.AssistantMessageReceived(Message.assistant(List.of(ContentBlock.text("ok")),
                StopReason.END_TURN, Usage.ZERO)));
        s = Reducer.apply(s, new Event.TurnCompleted("end_turn"));
        for (int i = 0; i < textTurns; i++) {
            s = Reducer.apply(s, new Event.UserMessageReceived(Message.user("q" + i)));
            s = Reducer.apply(s, new Event.AssistantMessageReceived(Message.assistant(List.of(ContentBlock.text("a" + i)),
                    StopReason.END_TURN, Usage.ZERO)));
            s = Reducer.apply(s, new Event.TurnCompleted("end_turn"));
        }
        return s;
    }

    @Test
    void toolUseIdsMustBeUniqueOverTheWholeHistory() {
        State idle = history("call-1", 40); // the tool_use is message 1; 4 + 80 = 84 messages
        State asking = Reducer.apply(idle, new Event.UserMessageReceived(Message.user("again")));
        assertThat(asking.messages()).hasSize(85); // so the reply is message 85: 84 messages after the first use

        assertThatThrownBy(() -> Reducer.apply(asking, new Event.AssistantMessageReceived(toolCall("call-1"))))
                .isInstanceOf(InvalidEventException.class)
                .hasMessageContaining("'call-1'")
                .hasMessageContaining("already used in this session (message 1)");

        // the refusal changed nothing and the session stays usable: a valid reply is accepted
        State next = Reducer.apply(asking, new Event.AssistantMessageReceived(toolCall("call-2")));
        next = Reducer.apply(next, new Event.ToolCallCompleted("call-2", "done", false));
        assertThat(next.pending()).isEmpty();
        assertThat(TranscriptValidator.violations(next.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
        assertThat(TranscriptValidator.violations(next.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void aStateLoadedFromASnapshotStillKnowsEveryEarlierId() {
        State idle = history("call-1", 40);
        StateSnapshot snap = Json.read(Json.write(idle.snapshot()), StateSnapshot.class);
        State loaded = State.fromSnapshot(snap, idle.messages());
        assertThat(loaded).isEqualTo(idle);
        State asking = Reducer.apply(loaded, new Event.UserMessageReceived(Message.user("again")));
        assertThatThrownBy(() -> Reducer.apply(asking, new Event.AssistantMessageReceived(toolCall("call-1"))))
                .isInstanceOf(InvalidEventException.class).hasMessageContaining("'call-1'");
    }

    @Test
    void aVersionDoesNotSeeTheIdsOfAnotherVersionBuiltFromTheSameState() {
        State asking = Reducer.apply(history("call-1", 3), new Event.UserMessageReceived(Message.user("again")));
        // two alternative replies to one state (a dropped attempt and the one that is kept)
        State a = Reducer.apply(asking, new Event.AssistantMessageReceived(toolCall("branch-a")));
        State b = Reducer.apply(asking, new Event.AssistantMessageReceived(toolCall("branch-b")));
        assertThat(a.toolUseIds().contains("branch-a")).isTrue();
        assertThat(a.toolUseIds().contains("branch-b")).isFalse();
        assertThat(b.toolUseIds().contains("branch-b")).isTrue();
        assertThat(b.toolUseIds().contains("branch-a")).isFalse();
        assertThat(asking.toolUseIds().contains("branch-a")).isFalse();
        assertThat(asking.toolUseIds().contains("call-1")).isTrue();
        // and each goes on growing on its own
        State a2 = Reducer.apply(a, new Event.ToolCallCompleted("branch-a", "x", false));
        State b2 = Reducer.apply(b, new Event.ToolCallCompleted("branch-b", "y", false));
        assertThat(a2.toolUseIds()).isEqualTo(ToolUseIds.of(a2.messages()));
        assertThat(b2.toolUseIds()).isEqualTo(ToolUseIds.of(b2.messages()));
        assertThat(a2.toolUseIds()).isNotEqualTo(b2.toolUseIds());
    }

    @Test
    void aTranscriptThatAlreadyRepeatsAnIdLoadsAndRecordsTheFirstUse() {
        // journals written before the check covered the whole history may hold a repeat
        List<Message> legacy = List.of(Message.user("a"), toolCall("x"),
                Message.toolResults(List.of(new ContentBlock.ToolResult("x", "1", false))), Message.user("b"), toolCall("x"));
        ToolUseIds ids = ToolUseIds.of(legacy);
        assertThat(ids.messageIndexOf("x")).isEqualTo(1);
        assertThat(ids.messageIndexOf("y")).isEqualTo(-1);
        assertThat(ids.messageCount()).isEqualTo(5);
    }
}
