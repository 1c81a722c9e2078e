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
 * @param listener    hears the turn's text as it streams (submit, approve, deny, answer), or null
 * @param acknowledgeEffects for a fork or rewind: branch even to before calls with side effects, which
 *                    the branch cannot undo (they are named in its {@code BranchCreated} reason);
 *                    without it such a branch is refused with {@link dev.threadline.core.UndoneEffectsException}
 */
public record CommandOptions(String commandId, DoubleTexting doubleTexting, TurnListener listener, boolean acknowledgeEffects) {
    /** No command id: the command is not deduplicated. */
    public static final CommandOptions NONE = new CommandOptions(null, null, null, false);

    /** @throws dev.threadline.core.InvalidInputException when the id is blank or longer than 255 characters */
    public CommandOptions {
        if (commandId != null) {
            Require.nonBlank(commandId, "command id");
            Require.argument(commandId.length() <= 255, "command id", "must be at most 255 characters, was " + commandId.length());
        }
    }

    /** Options with a command id and the session's double-texting strategy. */
    public CommandOptions(String commandId) {
        this(commandId, null, null, false);
    }

    /** Options with a command id and a double-texting strategy, streaming to no one. */
    public CommandOptions(String commandId, DoubleTexting doubleTexting) {
        this(commandId, doubleTexting, null, false);
    }

    /** Options of a fork or rewind that acknowledges the side effects it cannot undo. */
    public static CommandOptions acknowledgingEffects() {
        return new CommandOptions(null, null, null, true);
    }

    /** A copy acknowledging side effects. */
    public CommandOptions withAcknowledgedEffects() {
        return new CommandOptions(commandId, doubleTexting, listener, true);
    }

    /** Options of a command whose turn streams its text to {@code listener}. */
    public static CommandOptions streaming(TurnListener listener) {
        return new CommandOptions(null, null, Require.nonNull(listener, "listener"), false);
    }

    /** A copy streaming to {@code listener}. */
    public CommandOptions withListener(TurnListener listener) {
        return new CommandOptions(commandId, doubleTexting, listener, acknowledgeEffects);
    }

    /** Options carrying the caller's command id. */
    public static CommandOptions id(String commandId) {
        return new CommandOptions(Require.nonNull(commandId, "command id"), null, null, false);
    }

    /** Options of a submit that meets a running turn with {@code strategy}. */
    public static CommandOptions onBusy(DoubleTexting strategy) {
        return new CommandOptions(null, Require.nonNull(strategy, "doubleTexting"), null, false);
    }

    /** A copy with this double-texting strategy. */
    public CommandOptions withDoubleTexting(DoubleTexting strategy) {
        return new CommandOptions(commandId, strategy, listener, acknowledgeEffects);
    }
}
