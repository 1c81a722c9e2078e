package dev.threadline.core.internal.engine.live;

import dev.threadline.core.error.Require;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Time as the engine sees it: readings from the runtime's {@link Clock}, and waits carried out by its
 * scheduler, so that every deadline (lease waits, renewals, retries, tool timeouts) follows the clock and
 * scheduler a runtime is built with, and a test that injects its own drives them without waiting for
 * real time to pass. Thread-safe.
 */
public final class Waits {
    private final Clock clock;
    private final ScheduledExecutorService scheduler;

    public Waits(Clock clock, ScheduledExecutorService scheduler) {
        this.clock = Require.nonNull(clock, "clock");
        this.scheduler = Require.nonNull(scheduler, "scheduler");
    }

    /**
     * The runtime's own scheduler: one daemon thread that keeps the deadlines (lease renewals, waits, tool
     * timeouts). A cancelled alarm leaves its queue at once: a tool call that ends before its timeout
     * cancels its alarm, and a busy runtime would otherwise keep every cancelled one until it was due.
     */
    public static ScheduledExecutorService defaultScheduler() {
        java.util.concurrent.ScheduledThreadPoolExecutor s = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "threadline-scheduler");
            t.setDaemon(true);
            return t;
        });
        s.setRemoveOnCancelPolicy(true);
        return s;
    }

    /** The clock's reading now. */
    public Instant now() {
        return clock.instant();
    }

    /** The clock. */
    public Clock clock() {
        return clock;
    }

    /** How long from now until {@code then} (negative when it has passed). */
    public Duration until(Instant then) {
        return Duration.between(clock.instant(), then);
    }

    /** Runs {@code task} on the scheduler after {@code delay}. */
    public ScheduledFuture<?> after(Duration delay, Runnable task) {
        return scheduler.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** Runs {@code task} on the scheduler every {@code period}, first after one period. */
    public ScheduledFuture<?> every(Duration period, Runnable task) {
        long nanos = period.toNanos();
        return scheduler.scheduleWithFixedDelay(task, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Waits {@code delay}: the scheduler wakes the caller.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void sleep(Duration delay) throws InterruptedException {
        if (delay.isNegative() || delay.isZero()) {
            return;
        }
        CompletableFuture<Void> woken = new CompletableFuture<>();
        ScheduledFuture<?> alarm = after(delay, () -> woken.complete(null));
        try {
            woken.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            alarm.cancel(false);
        }
    }
}
