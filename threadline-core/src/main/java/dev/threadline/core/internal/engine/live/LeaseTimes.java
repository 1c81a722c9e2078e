package dev.threadline.core.internal.engine.live;

import java.time.Duration;

/**
 * The durations a {@link LeaseKeeper} works with, all derived once from the runtime's lease settings
 * ({@link Duration#dividedBy} divides as a BigDecimal, and these are read at every command): a lease is
 * reused while more than half its ttl is left, the cached state trusted while more than a tenth is, and
 * the ticker renews below two thirds. Immutable.
 *
 * @param ttl    how long a lease lasts unless renewed
 * @param waitBound how long a command waits for a session another process holds
 * @param linger how long a lease is kept after a session's last command
 */
public record LeaseTimes(Duration ttl, Duration waitBound, Duration linger, Duration half, Duration tenth, Duration twoThirds,
                         Duration yield, Duration tickPeriod) {
    /** The longest pause between two attempts to take a lease another process holds. */
    static final Duration MAX_POLL = Duration.ofMillis(50);

    /** The times of a runtime with these settings. */
    public static LeaseTimes of(Duration ttl, Duration wait, Duration linger) {
        return new LeaseTimes(ttl, wait, linger, ttl.dividedBy(2), ttl.dividedBy(10), ttl.multipliedBy(2).dividedBy(3), yieldFor(ttl),
                Duration.ofMillis(Math.max(10, ttl.toMillis() / 4)));
    }

    /**
     * How long a runtime leaves a session's lease to others after it gave the lease up for having held it a
     * whole {@code ttl}: long enough for a waiting process's acquire (which polls at least every 50 ms) to
     * come round twice, a tenth of the ttl when that is shorter, and at least 4 ms.
     */
    public static Duration yieldFor(Duration ttl) {
        return Duration.ofMillis(Math.max(4, Math.min(100, ttl.toMillis() / 10)));
    }

    static Duration min(Duration a, Duration b, Duration c) {
        Duration m = a.compareTo(b) <= 0 ? a : b;
        return m.compareTo(c) <= 0 ? m : c;
    }

    static Duration atLeastAMillisecond(Duration d) {
        return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
    }
}
