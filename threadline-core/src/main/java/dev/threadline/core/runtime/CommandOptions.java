package dev.threadline.core.runtime;

import dev.threadline.core.Require;

/**
 * Options of one write command (submit, update, fork, rewind, compact, clear). Immutable.
 *
 * @param commandId the caller's id for the command (e.g. an HTTP Idempotency-Key), or null. Repeating a
 *                  command with the same id returns the first outcome and appends nothing; the same id
 *                  with a different command is refused with {@link dev.threadline.core.CommandConflictException}.
 *                  1-255 characters.
 */
public record CommandOptions(String commandId) {
    /** No command id: the command is not deduplicated. */
    public static final CommandOptions NONE = new CommandOptions(null);

    /** @throws dev.threadline.core.InvalidInputException when the id is blank or longer than 255 characters */
    public CommandOptions {
        if (commandId != null) {
            Require.nonBlank(commandId, "command id");
            Require.argument(commandId.length() <= 255, "command id", "must be at most 255 characters, was " + commandId.length());
        }
    }

    /** Options carrying the caller's command id. */
    public static CommandOptions id(String commandId) {
        return new CommandOptions(Require.nonNull(commandId, "command id"));
    }
}
