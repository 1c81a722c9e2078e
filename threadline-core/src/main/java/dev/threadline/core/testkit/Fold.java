package dev.threadline.core.testkit;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import java.util.List;

/**
 * A test-only SPI: the reducer alone, folding journal events into a {@link State}, for tests and
 * benchmarks that check or time the fold apart from a store (a session's own state comes from
 * {@link dev.threadline.core.runtime.Session#state()} and its history). Stateless and thread-safe.
 */
public final class Fold {
    private Fold() {}

    /**
     * The state of a journal folded from the start.
     *
     * @throws dev.threadline.core.error.InvalidEventException when an event cannot follow the ones before it
     */
    public static State of(List<StoredEvent> journal) {
        return Reducer.fold(journal);
    }

    /**
     * The state after {@code event}.
     *
     * @throws dev.threadline.core.error.InvalidEventException when the event cannot follow {@code state}
     */
    public static State apply(State state, StoredEvent event) {
        return Reducer.apply(state, event);
    }
}
