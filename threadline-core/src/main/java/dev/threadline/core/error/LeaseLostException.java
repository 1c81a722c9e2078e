package dev.threadline.core.error;

/**
 * Fencing refused a write: the writer's lease epoch is no longer the session's (another process took
 * the session over, typically after this one stalled past its lease). Nothing was written by the
 * refused call; this process must stop working on the session.
 */
public final class LeaseLostException extends ThreadlineException {
    private final String sessionId;
    private final long epoch;
    private final long currentEpoch;

    /** A refusal naming the session, the writer's epoch and the session's current one. */
    public LeaseLostException(String sessionId, long epoch, long currentEpoch) {
        super("session '" + sessionId + "': this writer's lease (epoch " + epoch + ") was taken over (the session is at epoch "
                + currentEpoch + "); nothing was written");
        this.sessionId = sessionId;
        this.epoch = epoch;
        this.currentEpoch = currentEpoch;
    }

    /** The session whose write was refused. */
    public String sessionId() {
        return sessionId;
    }

    /** The epoch the refused writer held. */
    public long epoch() {
        return epoch;
    }

    /** The session's epoch when the write was refused. */
    public long currentEpoch() {
        return currentEpoch;
    }
}
