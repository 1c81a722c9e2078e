package dev.threadline.core.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move by hand (each reading also moves it 1 µs, so times never tie). Thread-safe. */
final class TestClock extends Clock {
    private final AtomicReference<Instant> now;

    TestClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    TestClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    /** Moves the clock to {@code then} when that is later than its reading; otherwise leaves it. */
    void advanceTo(Instant then) {
        now.updateAndGet(t -> t.isBefore(then) ? then : t);
    }

    @Override
    public Instant instant() {
        return now.updateAndGet(t -> t.plusNanos(1000));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
