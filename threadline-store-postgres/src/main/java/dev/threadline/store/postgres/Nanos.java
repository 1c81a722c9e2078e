package dev.threadline.store.postgres;

import java.time.Instant;

/**
 * Instants as epoch nanoseconds in {@code bigint} columns: exact (a timestamptz keeps microseconds,
 * and an instant read back must equal the one written) and sortable from 1677 to 2262, saturated
 * beyond. Stateless.
 */
final class Nanos {
    private Nanos() {}

    static long of(Instant t) {
        try {
            return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
        } catch (ArithmeticException e) {
            return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
