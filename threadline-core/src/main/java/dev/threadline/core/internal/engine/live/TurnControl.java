package dev.threadline.core.internal.engine.live;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;

/** The cancellation handle of one running turn: an interrupt flag and the skill runs to cancel with it. */
public final class TurnControl {
    private volatile String reason;
    private final List<Future<?>> running = new CopyOnWriteArrayList<>();
    /** Temp-scoped variables: they live for this turn only and are never persisted. */
    public final java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> temp = new java.util.concurrent.ConcurrentHashMap<>();

    public boolean interrupted() {
        return reason != null;
    }

    public String reason() {
        return reason;
    }

    public void interrupt(String why) {
        reason = why;
        running.forEach(f -> f.cancel(true));
    }

    public void track(Future<?> f) {
        running.add(f);
        if (interrupted()) {
            f.cancel(true);
        }
    }

    public void untrack(Future<?> f) {
        running.remove(f);
    }
}
