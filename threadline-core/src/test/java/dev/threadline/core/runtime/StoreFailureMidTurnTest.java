package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A store failure midway through a turn (the step that records the tool's result cannot be written)
 * leaves the turn open in the journal while this process keeps the lease: the same process's next
 * command closes that turn as interrupted and runs, instead of being refused behind the unanswered tool
 * call until the lease passes to another process.
 */
class StoreFailureMidTurnTest {
    @Test
    void theSameProcessClosesTheTurnAStoreFailureLeftOpenAndGoesOn() {
        AtomicBoolean down = new AtomicBoolean();
        ForwardingStore store = new ForwardingStore(new InMemoryStateStore()) {
            @Override
            public long append(AppendRequest request) {
                if (down.get() && request.events().stream().anyMatch(e -> e.event() instanceof Event.ToolCallEnded)) {
                    throw new StorageException("store unavailable: test (the server went away)");
                }
                return super.append(request);
            }
        };
        ScriptedModel model = ScriptedModel.replies(toolCall("t1", "echo", "{\"text\":\"hi\"}"), text("never"), text("again"));
        try (Threadline tl = Threadline.builder().store(store).model(model).skill(TestSkills.echo()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            down.set(true);
            assertThatThrownBy(() -> s.submit("say hi")).isInstanceOf(StorageException.class);
            down.set(false);

            TurnResult r = s.submit("hello");
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(s.history().journal()).extracting(StoredEvent::event).filteredOn(e -> e instanceof Event.TurnInterrupted)
                    .hasSize(1);
            assertThat(s.state().isIdle()).isTrue();
        }
    }
}
