package dev.threadline.core.runtime;

import dev.threadline.core.EngineAccess;

import dev.threadline.core.Threadline;
import dev.threadline.core.internal.engine.state.ToolResultOutcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolResultTest {

    private static Session sessionWithPendingCall(Threadline tl, String id) {
        Session s = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
        Engines.update(tl, id, CheckpointSource.INPUT, st -> List.of(new Event.UserMessageReceived(Message.user("go"))));
        Message ask = Message.assistant(List.of(new ContentBlock.ToolUse("t1", "echo", TestSkills.json("{}"))),
                StopReason.TOOL_USE, Usage.ZERO);
        Engines.update(tl, id, CheckpointSource.LOOP, st -> List.of(new Event.AssistantMessageReceived(ask),
                new Event.ToolCallStarted("t1", "echo")));
        return s;
    }

    @Test
    void aDuplicateResultIsRefusedAndLeavesTheJournalUnchanged() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            Session s = sessionWithPendingCall(tl, "s1");
            ToolResultOutcome first = Engines.result(tl, "s1", new Event.ToolCallCompleted("t1", "ok", false));
            assertThat(first.accepted()).isTrue();
            List<StoredEvent> before = s.history().journal();

            ToolResultOutcome dup = Engines.result(tl, "s1", new Event.ToolCallCompleted("t1", "again", false));

            assertThat(dup).isInstanceOf(ToolResultOutcome.Refused.class);
            assertThat(((ToolResultOutcome.Refused) dup).reason()).contains("t1").contains("late, duplicate or unknown");
            assertThat(s.history().journal()).isEqualTo(before);
            assertThat(EngineAccess.store(tl).head(Engines.key("s1"))).isEqualTo(before.size());
        }
    }

    @Test
    void aLateResultAfterATimeoutAndAnUnknownIdAreRefused() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            Session s = sessionWithPendingCall(tl, "s1");
            assertThat(Engines.result(tl, "s1", new Event.ToolCallTimedOut("t1", 100)).accepted()).isTrue();
            List<StoredEvent> before = s.history().journal();

            assertThat(Engines.result(tl, "s1", new Event.ToolCallCompleted("t1", "late", false)).accepted()).isFalse();
            assertThat(Engines.result(tl, "s1", new Event.ToolCallFailed("zzz", "x")).accepted()).isFalse();

            assertThat(s.history().journal()).isEqualTo(before);
            assertThat(s.state().messages().get(2).toolResults().get(0).content()).contains("did not finish within 100 ms");
        }
    }

    @Test
    void aResultForAnotherSessionsCallIsRefused() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            sessionWithPendingCall(tl, "a");
            Session b = tl.defaultTenant().create("b", SessionConfig.DEFAULT);
            List<StoredEvent> before = b.history().journal();
            assertThat(Engines.result(tl, "b", new Event.ToolCallCompleted("t1", "x", false)).accepted()).isFalse();
            assertThat(b.history().journal()).isEqualTo(before);
            assertThat(tl.defaultTenant().open("a").state().pending()).hasSize(1);
        }
    }
}
