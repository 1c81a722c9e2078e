package dev.threadline.core.store;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.store.CommandRecord;

/**
 * A store refused to record a command id that the session already has (a retried command). Nothing
 * was written; {@link #existing()} is the first record, from which the runtime returns the first outcome.
 */
public final class DuplicateCommandException extends ThreadlineException {
    private final CommandRecord existing;

    /** A refusal carrying the record that is already there. */
    public DuplicateCommandException(CommandRecord existing) {
        super("session '" + existing.session().id() + "' already has command '" + existing.commandId() + "' (first at seq "
                + existing.seq() + "); nothing was written");
        this.existing = existing;
    }

    /** The record already stored. */
    public CommandRecord existing() {
        return existing;
    }
}
