package dev.threadline.core.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;

/** The cancellation handle of one running turn: an interrupt flag and the skill runs to cancel with it. */
final class TurnControl {
    private volatile String reason;
    private final List<Future<?>> running = new CopyOnWriteArrayList<>();
    /** Temp-scoped variables: they live for this turn only and are never persisted. */
    final java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> temp = new java.util.concurrent.ConcurrentHashMap<>();

    boolean interrupted() {
        return reason != null;
    }

    String reason() {
        return reason;
    }

    void interrupt(String why) {
        reason = why;
        running.forEach(f -> f.cancel(true));
    }

    void track(Future<?> f) {
        running.add(f);
        if (interrupted()) {
            f.cancel(true);
        }
    }

    void untrack(Future<?> f) {
        running.remove(f);
    }
}
