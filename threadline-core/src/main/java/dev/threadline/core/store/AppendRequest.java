package dev.threadline.core.store;

import dev.threadline.core.error.Require;
import dev.threadline.core.event.StoredEvent;
import java.util.List;

/**
 * One conditional, fenced append: the events of one step. Immutable.
 *
 * @param key         the session
 * @param expectedSeq the journal head the writer saw (compare-and-set)
 * @param epoch       the writer's lease epoch (fencing)
 * @param events      the step's events, numbered from {@code expectedSeq + 1}
 * @param writes      shared-variable changes applied in the same transaction (may be empty)
 * @param command     the command record to write with this step (the first step of a command carrying a
 *                    caller's id), or null
 */
public record AppendRequest(SessionKey key, long expectedSeq, long epoch, List<StoredEvent> events,
                            List<ScopedWrite> writes, CommandRecord command) {
    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing or inconsistent */
    public AppendRequest {
        Require.nonNull(key, "key");
        Require.argument(expectedSeq >= 0, "expectedSeq", "must not be negative, was " + expectedSeq);
        Require.argument(epoch >= 1, "epoch", "an append needs the writer's lease epoch (at least 1), was " + epoch);
        events = List.copyOf(Require.nonNull(events, "events"));
        writes = writes == null ? List.of() : List.copyOf(writes);
        if (command != null) {
            Require.argument(command.session().equals(key), "command.session",
                    "a command appended to " + key + " is recorded there, not under " + command.session());
        }
    }

    /** An append without shared writes or command record. */
    public static AppendRequest of(SessionKey key, long expectedSeq, long epoch, List<StoredEvent> events) {
        return new AppendRequest(key, expectedSeq, epoch, events, List.of(), null);
    }
}
