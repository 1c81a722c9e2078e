package dev.threadline.core.error;

/**
 * An append was refused because the journal's head is not the sequence number the writer expected:
 * another writer appended first. Nothing was written; re-read the state and decide again.
 */
public final class VersionConflictException extends ThreadlineException {
    private final String sessionId;
    private final long expected;
    private final long actual;

    /**
     * A refused append to {@code sessionId}: the writer expected the head at {@code expected}, it is at {@code actual}.
     */
    public VersionConflictException(String sessionId, long expected, long actual) {
        super("session '" + sessionId + "': expected journal head at seq " + expected + " but it is at seq " + actual
                + "; another writer appended first, re-read the state and retry");
        this.sessionId = sessionId;
        this.expected = expected;
        this.actual = actual;
    }

    /** The session whose append was refused. */
    public String sessionId() {
        return sessionId;
    }

    /** The head the writer expected. */
    public long expected() {
        return expected;
    }

    /** The head the journal has. */
    public long actual() {
        return actual;
    }
}
