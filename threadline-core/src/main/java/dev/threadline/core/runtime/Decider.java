package dev.threadline.core.runtime;

import dev.threadline.core.event.Event;
import dev.threadline.core.state.State;
import java.util.List;

/**
 * Decides the events of one step from the current state. Must be a pure function of the state: on a
 * version conflict (another writer got there first) it is called again with the fresh state.
 * It may be called more than once for one update, from the thread that runs the session's command: keep it a pure
 * function of the state.
 */
@FunctionalInterface
public interface Decider {
    /** The events to append to a session in {@code state} (empty: none). */
    List<Event> decide(State state);
}
