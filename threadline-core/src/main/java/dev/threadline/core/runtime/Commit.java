package dev.threadline.core.runtime;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.State;
import java.util.List;

/** The result of one update: the events written (empty when the decider chose none) and the new state. */
public record Commit(List<StoredEvent> events, State state) {
    /** Whether the decider chose no events (nothing was written). */
    public boolean isEmpty() {
        return events.isEmpty();
    }
}
