package dev.threadline.core.error;

import java.time.Instant;

/**
 * A read of a checkpoint (its events, its state, a fork or rewind to it, an export) that pruning removed
 * (ADR 0045): the session keeps its history only after {@link #prunedThrough()}. Nothing was changed.
 */
public final class HistoryPrunedException extends ThreadlineException {
    private final String sessionId;
    private final long seq;
    private final long prunedThrough;
    private final String policy;

    /**
     * A read of {@code seq} of session {@code sessionId}, whose events through {@code prunedThrough} were
     * pruned at {@code prunedAt} under {@code policy}.
     */
    public HistoryPrunedException(String sessionId, long seq, long prunedThrough, String policy, Instant prunedAt) {
        super("session '" + sessionId + "' seq " + seq + " was pruned: the session keeps its history after seq " + prunedThrough
                + " only (policy '" + policy + "', pruned " + prunedAt + "); read, fork or rewind to a checkpoint after seq "
                + prunedThrough);
        this.sessionId = sessionId;
        this.seq = seq;
        this.prunedThrough = prunedThrough;
        this.policy = policy;
    }

    /** The session read. */
    public String sessionId() {
        return sessionId;
    }

    /** The seq asked for. */
    public long seq() {
        return seq;
    }

    /** The last seq pruning removed; the history starts after it. */
    public long prunedThrough() {
        return prunedThrough;
    }

    /** The policy that pruned, as a person reads it. */
    public String policy() {
        return policy;
    }
}
