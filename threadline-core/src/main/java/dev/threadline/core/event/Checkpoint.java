package dev.threadline.core.event;

import dev.threadline.core.event.CheckpointSource;
import java.time.Instant;

/**
 * A step boundary of a session's journal: reading it materialises the State as of {@code seq}.
 * Nothing is copied to make one.
 *
 * @param sessionId the session whose journal this is (for a branch's shared prefix: the branch)
 * @param seq       the last event of the step
 * @param step      the step number (1 = the session's creation)
 * @param source    what made the step
 * @param preview   a one-line summary of the step (first words of a message, tool names)
 */
public record Checkpoint(String sessionId, long seq, long step, CheckpointSource source, Instant time, String preview) {
}
