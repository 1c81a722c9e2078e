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
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolResultTest {

    private static Session sessionWithPendingCall(Threadline tl, String id) {
        Session s = tl.create(id, SessionConfig.DEFAULT);
        tl.states().update(id, CheckpointSource.INPUT, "c1", st -> List.of(new Event.UserMessageReceived(Message.user("go"))));
        Message ask = Message.assistant(List.of(new ContentBlock.ToolUse("t1", "echo", TestSkills.json("{}"))),
                StopReason.TOOL_USE, Usage.ZERO);
        tl.states().update(id, CheckpointSource.LOOP, "c1", st -> List.of(new Event.AssistantMessageReceived(ask),
                new Event.ToolCallStarted("t1", "echo")));
        return s;
    }

    @Test
    void aDuplicateResultIsRefusedAndLeavesTheJournalUnchanged() {
        try (Threadline tl = Threadline.builder().build()) {
            Session s = sessionWithPendingCall(tl, "s1");
            ToolResultOutcome first = tl.states().handleToolResult("s1", "c1", new Event.ToolCallCompleted("t1", "ok", false), List.of());
            assertThat(first.accepted()).isTrue();
            List<StoredEvent> before = s.journal();

            ToolResultOutcome dup = tl.states().handleToolResult("s1", "c1", new Event.ToolCallCompleted("t1", "again", false), List.of());

            assertThat(dup).isInstanceOf(ToolResultOutcome.Refused.class);
            assertThat(((ToolResultOutcome.Refused) dup).reason()).contains("t1").contains("late, duplicate or unknown");
            assertThat(s.journal()).isEqualTo(before);
            assertThat(tl.states().store().head("s1")).isEqualTo(before.size());
        }
    }

    @Test
    void aLateResultAfterATimeoutAndAnUnknownIdAreRefused() {
        try (Threadline tl = Threadline.builder().build()) {
            Session s = sessionWithPendingCall(tl, "s1");
            assertThat(tl.states().handleToolResult("s1", "c1", new Event.ToolCallTimedOut("t1", 100), List.of()).accepted()).isTrue();
            List<StoredEvent> before = s.journal();

            assertThat(tl.states().handleToolResult("s1", "c1", new Event.ToolCallCompleted("t1", "late", false), List.of()).accepted()).isFalse();
            assertThat(tl.states().handleToolResult("s1", "c1", new Event.ToolCallFailed("zzz", "x"), List.of()).accepted()).isFalse();

            assertThat(s.journal()).isEqualTo(before);
            assertThat(s.state().messages().get(2).toolResults().get(0).content()).contains("did not finish within 100 ms");
        }
    }

    @Test
    void aResultForAnotherSessionsCallIsRefused() {
        try (Threadline tl = Threadline.builder().build()) {
            sessionWithPendingCall(tl, "a");
            Session b = tl.create("b", SessionConfig.DEFAULT);
            List<StoredEvent> before = b.journal();
            assertThat(tl.states().handleToolResult("b", "c9", new Event.ToolCallCompleted("t1", "x", false), List.of()).accepted()).isFalse();
            assertThat(b.journal()).isEqualTo(before);
            assertThat(tl.open("a").state().pending()).hasSize(1);
        }
    }
}
