package dev.threadline.core.store;

import dev.threadline.core.error.Require;

/**
 * One stretch of one session's own journal that a {@link TextSearch} looks in: seqs {@code fromSeq}
 * to {@code toSeq}, inclusive. A branch's search is its own range plus each ancestor's up to the
 * branch point, so a rewound or forked session never finds its sibling's later turns. Immutable.
 *
 * @param key     the session whose own rows are searched
 * @param fromSeq the first seq, at least 1
 * @param toSeq   the last seq; below {@code fromSeq} for an empty range
 */
public record SearchRange(SessionKey key, long fromSeq, long toSeq) {
    /** @throws dev.threadline.core.error.InvalidInputException when the key is missing or {@code fromSeq} is below 1 */
    public SearchRange {
        Require.nonNull(key, "key");
        Require.argument(fromSeq >= 1, "fromSeq", "must be at least 1, was " + fromSeq);
    }

    /** Whether the range holds no seq. */
    public boolean isEmpty() {
        return toSeq < fromSeq;
    }
}
