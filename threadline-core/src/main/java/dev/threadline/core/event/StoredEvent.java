package dev.threadline.core.event;

import dev.threadline.core.error.Require;
import java.time.Instant;

/**
 * An event as it sits in a journal: its position ({@code seq}, from 1, no gaps), the step (commit)
 * it belongs to, when it was written, the command that caused it and what kind of step it was.
 * For a branch, events up to the branch point belong to the ancestor they were written in
 * ({@code sessionId}).
 */
public record StoredEvent(String sessionId, long seq, long step, Instant time, String commandId,
                          CheckpointSource source, Event event) {
    public StoredEvent {
        Require.nonBlank(sessionId, "sessionId");
        Require.argument(seq >= 1, "seq", "must be at least 1, was " + seq);
        Require.argument(step >= 1, "step", "must be at least 1, was " + step);
        Require.nonNull(time, "time");
        Require.nonBlank(commandId, "commandId");
        Require.nonNull(source, "source");
        Require.nonNull(event, "event");
    }
}
