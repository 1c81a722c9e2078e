package dev.threadline.core.error;

/** A session with this id already exists; pick another id or open the existing one. */
public final class SessionExistsException extends ThreadlineException {
    private final String sessionId;

    /** A refusal to create {@code sessionId}, which exists. */
    public SessionExistsException(String sessionId) {
        super("a session with id '" + sessionId + "' already exists; open it instead or choose another id");
        this.sessionId = sessionId;
    }

    /** The id that is taken. */
    public String sessionId() {
        return sessionId;
    }
}
