package dev.threadline.chatmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.Message;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryStepTest {
    static final MemoryLayout LAYOUT = new MemoryLayout("test");

    @Test
    void slide_tells_an_append_a_window_that_moved_and_a_rewrite_apart() {
        List<String> view = List.of("a", "b", "c");
        assertThat(MemoryStep.slide(view, List.of("a", "b", "c", "d"), MemoryStep.Matcher.equal())).isZero();
        assertThat(MemoryStep.slide(view, List.of("b", "c", "d"), MemoryStep.Matcher.equal())).isEqualTo(1);
        assertThat(MemoryStep.slide(view, List.of("a", "x", "c"), MemoryStep.Matcher.equal())).isEqualTo(-1);
    }

    @Test
    void a_step_appends_its_messages_and_writes_only_the_variables_that_changed() {
        try (Threadline runtime = Threadline.builder().store(new InMemoryStateStore()).build()) {
            Session session = runtime.tenant("t").create("s", SessionConfig.DEFAULT);
            session.recordStep(s -> new MemoryStep(s, LAYOUT)
                    .addMessage(new Event.UserMessageReceived(Message.user("hi")))
                    .place(0, List.of(0), List.of("be brief"), List.of(0), 1).finish());
            var state = session.state();
            assertThat(state.messages()).extracting(Message::text).containsExactly("hi");
            assertThat(LAYOUT.start(state)).isZero();
            assertThat(LAYOUT.systems(state)).containsExactly(new SystemPlacement(0, "be brief"));
            assertThat(MemoryLayout.interleave(LAYOUT.start(state), List.of(0), LAYOUT.systems(state), i -> "m" + i, t -> "sys:" + t))
                    .containsExactly("sys:be brief", "m0");

            List<Event> again = new MemoryStep(state, LAYOUT).place(0, List.of(0), List.of("be brief"), List.of(0), 1).finish();
            assertThat(again).isEmpty();
            assertThat(new MemoryStep(state, LAYOUT).clear(false, 0)).hasAtLeastOneElementOfType(Event.Cleared.class)
                    .hasAtLeastOneElementOfType(Event.VariablesChanged.class);
        }
    }

    @Test
    void a_layout_needs_a_name() {
        assertThatThrownBy(() -> new MemoryLayout(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThat(LAYOUT.pendingResultVariable(2)).isEqualTo("test.pending.result.2");
        assertThat(LAYOUT.turnReason()).isEqualTo("test chat memory update");
    }
}
