package dev.threadline.server;

import java.time.Duration;

/**
 * How a server lets sessions go: the ttl of a session created without its own ({@code ttlSeconds} on
 * {@code POST /v1/sessions}), and how often it sweeps the store for expired sessions
 * ({@code Threadline.sweep}), removing up to {@code sweepLimit} per pass and passing again at once while a
 * pass removes that many. Every node on a store may sweep: a sweep takes a session's lease before it
 * deletes it, so a session running a turn anywhere is kept until the turn ends. Immutable.
 *
 * @param sessionTtl the default ttl of every tenant's new sessions, or null (the default) for never
 * @param sweepEvery how long from the end of one sweep to the start of the next (default one minute);
 *                   zero for no sweeping by this server (another process, or {@code threadline sessions sweep}, does it)
 * @param sweepLimit the most sessions one pass looks at, 1 to 1000 (default 1000)
 * @param historyKeep how much history every session of the server's tenants (those with an API key) keeps, or null
 *                    (the default) for all of it: the sweeper prunes the rest (ADR 0045)
 * @param pruneEvery how long from the end of one pruning pass to the start of the next (default one hour)
 */
public record RetentionPolicy(Duration sessionTtl, Duration sweepEvery, int sweepLimit,
                              dev.threadline.core.runtime.PrunePolicy historyKeep, Duration pruneEvery) {
    /** No default ttl; a sweep every minute of up to 1000 sessions a pass; no pruning. */
    public static final RetentionPolicy DEFAULT = new RetentionPolicy(null, Duration.ofMinutes(1), 1000);

    /** A policy that prunes no history. @throws IllegalArgumentException as the canonical constructor */
    public RetentionPolicy(Duration sessionTtl, Duration sweepEvery, int sweepLimit) {
        this(sessionTtl, sweepEvery, sweepLimit, null, Duration.ofHours(1));
    }

    /**
     * @throws IllegalArgumentException when the ttl is not positive, the interval is negative, the limit is not 1 to 1000,
     *         or the pruning interval is not positive
     */
    public RetentionPolicy {
        if (sessionTtl != null && !sessionTtl.isPositive()) {
            throw new IllegalArgumentException("retention.sessionTtl must be positive (or absent for never), was " + sessionTtl);
        }
        if (sweepEvery == null || sweepEvery.isNegative()) {
            throw new IllegalArgumentException("retention.sweepEvery must be zero (no sweeping) or positive, was " + sweepEvery);
        }
        if (sweepLimit < 1 || sweepLimit > 1000) {
            throw new IllegalArgumentException("retention.sweepLimit must be 1 to 1000, was " + sweepLimit);
        }
        if (pruneEvery == null || !pruneEvery.isPositive()) {
            throw new IllegalArgumentException("retention.pruneEvery must be positive, was " + pruneEvery);
        }
    }

    /** A copy with another {@code sessionTtl} (null for never). */
    public RetentionPolicy withSessionTtl(Duration ttl) {
        return new RetentionPolicy(ttl, sweepEvery, sweepLimit, historyKeep, pruneEvery);
    }

    /** A copy with another {@code sweepEvery} (zero for no sweeping). */
    public RetentionPolicy withSweepEvery(Duration every) {
        return new RetentionPolicy(sessionTtl, every, sweepLimit, historyKeep, pruneEvery);
    }

    /** A copy with another {@code sweepLimit}. */
    public RetentionPolicy withSweepLimit(int limit) {
        return new RetentionPolicy(sessionTtl, sweepEvery, limit, historyKeep, pruneEvery);
    }

    /** A copy that prunes every session's history to {@code keep} (null: none) every {@code every}. */
    public RetentionPolicy withHistoryKeep(dev.threadline.core.runtime.PrunePolicy keep, Duration every) {
        return new RetentionPolicy(sessionTtl, sweepEvery, sweepLimit, keep, every);
    }
}
