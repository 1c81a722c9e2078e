package dev.threadline.core.runtime;

import dev.threadline.core.Require;
import dev.threadline.core.model.DoubleTexting;

/**
 * Options of one write command (submit, approve, deny, answer, edit, fork, rewind, compact, clear). Immutable.
 *
 * @param commandId   the caller's id for the command (e.g. an HTTP Idempotency-Key), or null. Repeating a
 *                    command with the same id returns the first outcome and appends nothing; the same id
 *                    with a different command is refused with {@link dev.threadline.core.CommandConflictException}.
 *                    1-255 characters.
 * @param doubleTexting for a submit: what the message does if a turn of the session is running, in
 *                    this or another process; null for the session config's strategy. Other commands
 *                    ignore it (they always queue).
 */
public record CommandOptions(String commandId, DoubleTexting doubleTexting) {
    /** No command id: the command is not deduplicated. */
    public static final CommandOptions NONE = new CommandOptions(null, null);

    /** @throws dev.threadline.core.InvalidInputException when the id is blank or longer than 255 characters */
    public CommandOptions {
        if (commandId != null) {
            Require.nonBlank(commandId, "command id");
            Require.argument(commandId.length() <= 255, "command id", "must be at most 255 characters, was " + commandId.length());
        }
    }

    /** Options with a command id and the session's double-texting strategy. */
    public CommandOptions(String commandId) {
        this(commandId, null);
    }

    /** Options carrying the caller's command id. */
    public static CommandOptions id(String commandId) {
        return new CommandOptions(Require.nonNull(commandId, "command id"), null);
    }

    /** Options of a submit that meets a running turn with {@code strategy}. */
    public static CommandOptions onBusy(DoubleTexting strategy) {
        return new CommandOptions(null, Require.nonNull(strategy, "doubleTexting"));
    }

    /** A copy with this double-texting strategy. */
    public CommandOptions withDoubleTexting(DoubleTexting strategy) {
        return new CommandOptions(commandId, strategy);
    }
}
