package dev.threadline.core.runtime;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.State;
import java.util.List;

/**
 * Receives every committed step, after it is durable, in journal order per session. Called on the
 * committing thread: keep it quick (hand work off to a queue). A listener that throws is logged and
 * never affects the commit.
 */
@FunctionalInterface
public interface EventListener {
    /** Called after {@code events} were appended to session {@code sessionId}, with the state they led to. */
    void onCommit(String sessionId, List<StoredEvent> events, State state);
}
