package dev.threadline.core.error;

/**
 * A new message was refused because a turn of the session is running (double texting with the
 * {@code reject} strategy). Retry once the turn has ended, or submit with {@code enqueue},
 * {@code interrupt} or {@code rollback}. Nothing was written.
 */
public final class SessionBusyException extends ThreadlineException {
    private final String sessionId;
    private final String runningTurn;

    /**
     * A refusal of a new message to session {@code sessionId}, which is running {@code runningTurn}.
     *
     * @param sessionId   the session
     * @param runningTurn the running turn as a person reads it (its message, seq and where it runs)
     */
    public SessionBusyException(String sessionId, String runningTurn) {
        super("session '" + sessionId + "' is busy with " + runningTurn + "; the new message was refused (double texting:"
                + " reject). Retry when it ends, or submit with enqueue, interrupt or rollback");
        this.sessionId = sessionId;
        this.runningTurn = runningTurn;
    }

    /** The session that was busy. */
    public String sessionId() {
        return sessionId;
    }

    /** The running turn the message collided with. */
    public String runningTurn() {
        return runningTurn;
    }
}
