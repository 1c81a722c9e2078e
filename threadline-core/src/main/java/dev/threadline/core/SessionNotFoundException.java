package dev.threadline.core;

/** No session with this id exists (for this tenant). */
public final class SessionNotFoundException extends ThreadlineException {
    private final String sessionId;

    public SessionNotFoundException(String sessionId) {
        super("no session with id '" + sessionId + "'");
        this.sessionId = sessionId;
    }

    public String sessionId() {
        return sessionId;
    }
}
