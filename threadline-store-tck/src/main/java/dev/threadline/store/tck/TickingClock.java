package dev.threadline.store.tck;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deterministic clock for stores under test: every reading is one millisecond after the previous
 * one, so "most recently updated" never ties and no test needs to wait for real time to pass.
 * Thread-safe.
 */
public final class TickingClock extends Clock {
    private final Instant start;
    private final AtomicLong ticks = new AtomicLong();

    public TickingClock(Instant start) {
        this.start = start;
    }

    @Override
    public Instant instant() {
        return start.plusMillis(ticks.incrementAndGet());
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
