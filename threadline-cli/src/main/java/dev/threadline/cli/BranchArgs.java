package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.UndoneEffectsException;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import java.util.function.Supplier;

/**
 * A {@code /rewind} or {@code /fork} argument, {@code SEQ [--force]}: where to branch, and whether to go
 * back past side effects the branch cannot undo. Immutable.
 *
 * @param seq     the checkpoint to branch at
 * @param force   whether side effects after it are acknowledged
 * @param command the slash command, for messages
 */
record BranchArgs(long seq, boolean force, String command) {
    CommandOptions options() {
        return force ? CommandOptions.builder().acknowledgeEffects(true).build() : CommandOptions.NONE;
    }

    /** Runs the branch; a seq that is no checkpoint points to /checkpoints, a refusal over side effects says how to go anyway. */
    Session go(Supplier<Session> branch) {
        try {
            return branch.get();
        } catch (InvalidInputException e) {
            if (!e.field().equals("seq")) {
                throw e;
            }
            // the engine's hint fits every surface ("checkpoints lists them"); here that list is the /checkpoints command
            throw new InvalidInputException("seq", e.reason().replace("; checkpoints lists them", "; /checkpoints lists them"));
        } catch (UndoneEffectsException e) {
            throw new InvalidInputException("SEQ", "going back to seq " + seq + " cannot undo "
                    + e.effects().size() + " side effect(s): " + String.join("; ", e.effects()) + ". Nothing was changed; "
                    + command + " " + seq + " --force branches anyway");
        }
    }

    static BranchArgs parse(String arg, String command) {
        String[] words = arg.split("\\s+");
        boolean force = words.length == 2 && words[1].equals("--force");
        if (words.length > 2 || (words.length == 2 && !force)) {
            throw new InvalidInputException("SEQ", "usage: " + command + " SEQ [--force]");
        }
        return new BranchArgs(seq(words[0]), force, command);
    }

    private static long seq(String arg) {
        try {
            return Long.parseLong(arg);
        } catch (NumberFormatException e) {
            throw new InvalidInputException("SEQ", "'" + arg + "' is not a checkpoint seq; /checkpoints lists them");
        }
    }
}
