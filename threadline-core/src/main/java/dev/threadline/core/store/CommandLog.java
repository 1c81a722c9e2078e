package dev.threadline.core.store;

import java.util.Optional;

/**
 * The store's role as the log of caller-supplied command ids, which makes commands idempotent: a
 * record is written with the first step of a command ({@link AppendRequest#command()}, or with
 * {@link SessionIndex#create} for a create or fork) and is unique per session. Thread-safe.
 */
public interface CommandLog {

    /**
     * The record of {@code commandId} in this session, or empty when it was never recorded.
     *
     * @throws dev.threadline.core.error.SessionNotFoundException when the session does not exist
     */
    Optional<CommandRecord> command(SessionKey key, String commandId);
}
