package dev.threadline.core.runtime;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import java.util.List;
import java.util.Map;

/** An increment-style decider: reads variable {@code n} and writes n + 1. */
final class Counters {
    private Counters() {}

    static final Decider INCREMENT = Counters::increment;

    static List<Event> increment(State s) {
        return List.of(new Event.VariablesChanged(VariableScope.SESSION, Map.of("n", IntNode.valueOf(value(s) + 1)), List.of()));
    }

    static int value(State s) {
        return s.variable("n") == null ? 0 : s.variable("n").asInt();
    }
}
