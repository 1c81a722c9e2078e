package dev.threadline.core.error;

import java.time.Instant;

/**
 * The session is being run by another process (it holds the session's lease), and waiting for it
 * did not end within the bound. Nothing was written; try again later.
 */
public final class LeaseHeldException extends ThreadlineException {
    private final String sessionId;
    private final String holder;
    private final Instant until;

    /** A refusal naming the session, the holder and when its lease lapses unless renewed. */
    public LeaseHeldException(String sessionId, String holder, Instant until) {
        super("session '" + sessionId + "' is held by " + holder + " until " + until
                + " (it is running a command there); nothing was written, try again later");
        this.sessionId = sessionId;
        this.holder = holder;
        this.until = until;
    }

    /** The session another process holds. */
    public String sessionId() {
        return sessionId;
    }

    /** Who holds the lease. */
    public String holder() {
        return holder;
    }

    /** When the holder's lease lapses unless it renews it. */
    public Instant until() {
        return until;
    }
}
