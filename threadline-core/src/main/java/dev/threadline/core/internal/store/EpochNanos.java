package dev.threadline.core.internal.store;

import java.time.Instant;

/**
 * Instants as epoch nanoseconds, the form every store keeps times and listing positions in: exact for
 * the years 1678 to 2262 (an instant read back equals the one written) and sortable, saturated at the
 * ends of the {@code long} range beyond them. Stateless.
 */
public final class EpochNanos {
    private EpochNanos() {}

    /** {@code t} as epoch nanoseconds, {@link Long#MIN_VALUE} / {@link Long#MAX_VALUE} outside the range. */
    public static long of(Instant t) {
        try {
            return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
        } catch (ArithmeticException e) {
            return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** The instant of {@code nanos} epoch nanoseconds (the inverse of {@link #of} inside its exact range). */
    public static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
