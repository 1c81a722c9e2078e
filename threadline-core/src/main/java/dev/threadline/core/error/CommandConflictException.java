package dev.threadline.core.error;

/**
 * A command id was reused for a different command (another kind, or other arguments). Nothing was
 * written; a retry must repeat the first command exactly, a new command needs a new id.
 */
public final class CommandConflictException extends ThreadlineException {
    private final String commandId;

    /** A refusal naming the id and what it was first used for. */
    public CommandConflictException(String sessionId, String commandId, String firstUse, String thisUse) {
        super("session '" + sessionId + "': command id '" + commandId + "' was first used for " + firstUse
                + ", not " + thisUse + "; use a new command id for a different command (nothing was written)");
        this.commandId = commandId;
    }

    /** The command id that was reused. */
    public String commandId() {
        return commandId;
    }
}
