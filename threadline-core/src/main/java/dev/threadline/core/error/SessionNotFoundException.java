package dev.threadline.core.error;

/** No session with this id exists (for this tenant). */
public final class SessionNotFoundException extends ThreadlineException {
    private final String sessionId;

    /** No session {@code sessionId} for the caller's tenant. */
    public SessionNotFoundException(String sessionId) {
        super("no session with id '" + sessionId + "'");
        this.sessionId = sessionId;
    }

    /** The id that was not found. */
    public String sessionId() {
        return sessionId;
    }
}
