package dev.threadline.server;

/**
 * What one request, turn and tenant may use. Immutable.
 *
 * @param maxBodyBytes           largest request body (413 past it)
 * @param maxTextChars           longest message text, system prompt or compaction focus
 * @param maxMetadataPairs       most metadata pairs on a session (and in a listing filter)
 * @param maxValueChars          longest metadata key or value, user id, or other short string
 * @param maxEventsPerTurn       most journal events one command's turn may append; past it the turn is
 *                               interrupted (recorded) and the command answers 429
 * @param maxSessionsPerTenant   most sessions a tenant may have (branches included); a create past it is a 429
 * @param maxSseStreamsPerTenant most SSE streams one tenant may have open on one node; one more is a 429
 * @param maxConnections         most TCP connections this node keeps open; past it the node stops accepting
 *                               (new connections wait in the listen backlog) until one closes
 * @param readTimeoutMillis      how long a client may take to send a request's headers, and then its body
 *                               (each counted from its first byte); past it the connection is closed. Also the
 *                               idle timeout of a connection (nothing read or written)
 */
public record Limits(long maxBodyBytes, int maxTextChars, int maxMetadataPairs, int maxValueChars, int maxEventsPerTurn,
                     int maxSessionsPerTenant, int maxSseStreamsPerTenant, int maxConnections, long readTimeoutMillis) {
    /**
     * 1 MiB bodies, 100,000-character texts, 64 metadata pairs of 512 characters, 2,000 events a turn,
     * 100,000 sessions and 200 open streams a tenant, 1,000 connections a node, 30 s to send headers or a body.
     */
    public static final Limits DEFAULT = new Limits(1 << 20, 100_000, 64, 512, 2_000, 100_000, 200, 1_000, 30_000);

    /** @throws IllegalArgumentException when a limit is not positive (bodies at least 1 KiB) */
    public Limits {
        if (maxBodyBytes < 1024 || maxTextChars < 1 || maxMetadataPairs < 0 || maxValueChars < 1 || maxEventsPerTurn < 1
                || maxSessionsPerTenant < 1 || maxSseStreamsPerTenant < 1 || maxConnections < 1 || readTimeoutMillis < 100) {
            throw new IllegalArgumentException("limits must be positive (bodies at least 1 KiB, read timeout at least 100 ms)");
        }
    }

    /** The request limits, with the default turn and tenant limits. */
    public Limits(long maxBodyBytes, int maxTextChars, int maxMetadataPairs, int maxValueChars) {
        this(maxBodyBytes, maxTextChars, maxMetadataPairs, maxValueChars, 2_000, 100_000, 200, 1_000, 30_000);
    }

    /** A copy with another {@code maxEventsPerTurn}. */
    public Limits withMaxEventsPerTurn(int n) {
        return new Limits(maxBodyBytes, maxTextChars, maxMetadataPairs, maxValueChars,
                n, maxSessionsPerTenant, maxSseStreamsPerTenant, maxConnections, readTimeoutMillis);
    }

    /** A copy with another {@code maxSessionsPerTenant}. */
    public Limits withMaxSessionsPerTenant(int n) {
        return new Limits(maxBodyBytes, maxTextChars, maxMetadataPairs, maxValueChars,
                maxEventsPerTurn, n, maxSseStreamsPerTenant, maxConnections, readTimeoutMillis);
    }

    /** A copy with another {@code maxSseStreamsPerTenant}. */
    public Limits withMaxSseStreamsPerTenant(int n) {
        return new Limits(maxBodyBytes, maxTextChars, maxMetadataPairs, maxValueChars,
                maxEventsPerTurn, maxSessionsPerTenant, n, maxConnections, readTimeoutMillis);
    }

    /** A copy with another {@code maxConnections}. */
    public Limits withMaxConnections(int n) {
        return new Limits(maxBodyBytes, maxTextChars, maxMetadataPairs, maxValueChars, maxEventsPerTurn, maxSessionsPerTenant,
                maxSseStreamsPerTenant, n, readTimeoutMillis);
    }

    /** A copy with another {@code readTimeoutMillis}. */
    public Limits withReadTimeoutMillis(long millis) {
        return new Limits(maxBodyBytes, maxTextChars, maxMetadataPairs, maxValueChars, maxEventsPerTurn, maxSessionsPerTenant,
                maxSseStreamsPerTenant, maxConnections, millis);
    }
}
