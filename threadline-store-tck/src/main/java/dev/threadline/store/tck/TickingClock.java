package dev.threadline.store.tck;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deterministic clock for stores under test: every reading is one millisecond after the previous
 * one, so "most recently updated" never ties, and {@link #advance} moves it on at once, so lease
 * expiry is tested without waiting for real time to pass. Thread-safe.
 */
public final class TickingClock extends Clock {
    private final Instant start;
    private final AtomicLong ticks = new AtomicLong();
    private final AtomicLong skippedNanos = new AtomicLong();

    /** A clock whose first reading is one millisecond after {@code start}. */
    public TickingClock(Instant start) {
        this.start = start;
    }

    @Override
    public Instant instant() {
        return start.plusMillis(ticks.incrementAndGet()).plusNanos(skippedNanos.get());
    }

    /**
     * Moves the clock forward by {@code by}: the next reading is at least that much after the last.
     *
     * @throws IllegalArgumentException when {@code by} is negative (a clock never goes back)
     */
    public void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("a TickingClock only moves forward, not by " + by);
        }
        skippedNanos.addAndGet(by.toNanos());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a TickingClock is always UTC");
    }
}
