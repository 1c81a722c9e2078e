package dev.threadline.core.internal.engine.live;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.state.State;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A session's committed steps that its listeners have still to hear, in commit order (the
 * {@link Listeners}' per-session state). While steps wait or are being delivered, it holds one pin on its
 * {@link LiveSession}. Guarded by its own monitor.
 */
final class Deliveries {
    /** One committed step. */
    record Step(List<StoredEvent> events, State state) {}

    final ArrayDeque<Step> queue = new ArrayDeque<>();
    boolean delivering;
}
