package dev.threadline.core;

/**
 * An append was refused because the journal's head is not the sequence number the writer expected:
 * another writer appended first. Nothing was written; re-read the state and decide again.
 */
public final class VersionConflictException extends ThreadlineException {
    private final String sessionId;
    private final long expected;
    private final long actual;

    public VersionConflictException(String sessionId, long expected, long actual) {
        super("session '" + sessionId + "': expected journal head at seq " + expected + " but it is at seq " + actual
                + "; another writer appended first, re-read the state and retry");
        this.sessionId = sessionId;
        this.expected = expected;
        this.actual = actual;
    }

    public String sessionId() {
        return sessionId;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }
}
