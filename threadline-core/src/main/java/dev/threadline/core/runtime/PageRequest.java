package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;

/**
 * A page of a session's checkpoints by seq: those after {@code after} (oldest first), or the newest
 * ones before {@code before} (still listed oldest first). Immutable.
 *
 * @param after  list checkpoints with seq greater than this (0 from the start), or -1 when paging backwards
 * @param before list the last checkpoints with seq less than this, or -1 when paging forwards
 * @param limit  at most this many (1-1000)
 */
public record PageRequest(long after, long before, int limit) {
    /** @throws dev.threadline.core.error.InvalidInputException when both or neither direction is given, or the limit is out of range */
    public PageRequest {
        Require.argument((after >= 0) != (before >= 0), "page", "give exactly one of after (>= 0) and before (>= 1)");
        Require.argument(limit >= 1 && limit <= 1000, "limit", "must be between 1 and 1000, was " + limit);
    }

    /** The first {@code limit} checkpoints after seq {@code seq}. */
    public static PageRequest after(long seq, int limit) {
        Require.argument(seq >= 0, "after", "must not be negative, was " + seq);
        return new PageRequest(seq, -1, limit);
    }

    /** The last {@code limit} checkpoints before seq {@code seq} (use {@code Long.MAX_VALUE} for the newest). */
    public static PageRequest before(long seq, int limit) {
        Require.argument(seq >= 1, "before", "must be at least 1, was " + seq);
        return new PageRequest(-1, seq, limit);
    }

    /** Whether this pages backwards from {@link #before}. */
    public boolean backwards() {
        return before >= 0;
    }
}
