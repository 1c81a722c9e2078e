package dev.threadline.core.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A scheduler on a {@link TestClock}: nothing it is given runs until the test moves time with
 * {@link #advance}, which runs every task that falls due on the way, on the test's thread, in order of due
 * time, with the clock set to the task's due time first. A runtime built with it
 * ({@code Threadline.builder().clock(clock).scheduler(scheduler)}) keeps its deadlines (tool timeouts,
 * lease waits and yields, the lease ticker's renewals and releases) on the test's time: a thread that
 * waits on the runtime's scheduler ({@code Waits.sleep}) waits until the test advances past its wake-up,
 * however long that takes in real time, and no test waits for real time to pass.
 *
 * <p>To hand time over to such a thread at the right moment, the test first waits until the thread has
 * scheduled its wake-up ({@link #awaitScheduled}); that wait is on the event, bounded only by a generous
 * real-time safety net. Thread-safe.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    /** The real-time bound of a wait for something to be scheduled: a safety net, not a timing. */
    static final Duration SAFETY = Duration.ofSeconds(30);

    private final TestClock clock;
    /** Guarded by this. */
    private final PriorityQueue<Task<?>> queue = new PriorityQueue<>();
    private long sequence; // guarded by this
    private boolean shutdown; // guarded by this

    ManualScheduler(TestClock clock) {
        this.clock = clock;
    }

    /** The clock this scheduler's time is read from. */
    TestClock clock() {
        return clock;
    }

    /**
     * Moves time forward by {@code by}, running each task that falls due meanwhile (periodic ones as often
     * as they fall due), then leaves the clock at the end.
     */
    void advance(Duration by) {
        Instant end = clock.instant().plus(by);
        while (true) {
            Task<?> next;
            synchronized (this) {
                next = queue.peek();
                if (next == null || next.due.isAfter(end)) {
                    break;
                }
                queue.poll();
            }
            clock.advanceTo(next.due);
            next.run();
        }
        clock.advanceTo(end);
    }

    /**
     * For the end of a test, before its runtimes close (a runtime's close waits for its commands): moves the
     * clock a day on and runs every queued task once, so a command still asleep on this scheduler (a test
     * that failed half-way leaves one waiting for a lease) wakes past every deadline and ends.
     */
    void finish() {
        clock.advance(Duration.ofDays(1));
        List<Task<?>> all;
        synchronized (this) {
            all = new ArrayList<>(queue);
            queue.clear();
        }
        all.forEach(Task::run);
    }

    /**
     * Waits until a one-shot task (a wake-up, a timeout; not a periodic ticker) is queued whose delay from
     * now matches {@code delay}: a thread has gone to sleep on this scheduler, or armed a timeout.
     *
     * @throws AssertionError when none is within {@link #SAFETY} of real time
     */
    synchronized void awaitScheduled(String what, Predicate<Duration> delay) throws InterruptedException {
        long end = System.nanoTime() + SAFETY.toNanos();
        while (true) {
            Instant now = clock.instant();
            if (queue.stream().anyMatch(t -> !t.isPeriodic() && delay.test(Duration.between(now, t.due)))) {
                return;
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("nothing was scheduled (" + what + ") within " + SAFETY + " of real time; queued: " + queue);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /**
     * Moves time on by {@code step} at a time, each time once a thread sleeps on this scheduler (a one-shot
     * task falls due within the step), until {@code result} completes; its value. A command that waits for a
     * lease, or for a turn another runtime ends at its ticker's next tick, is driven to its end this way,
     * the test's time passing only while something waits for it.
     *
     * @throws AssertionError when neither happens within {@link #SAFETY} of real time
     */
    <T> T advanceUntil(CompletableFuture<T> result, Duration step) throws Exception {
        result.whenComplete((r, e) -> {
            synchronized (this) {
                notifyAll();
            }
        });
        long end = System.nanoTime() + SAFETY.toNanos();
        while (!result.isDone()) {
            synchronized (this) {
                while (!result.isDone() && !dueWithin(step)) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        throw new AssertionError("neither done nor anything scheduled within " + step + " in " + SAFETY
                                + " of real time; queued: " + queue);
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
            }
            if (!result.isDone()) {
                advance(step);
            }
        }
        return result.get();
    }

    private boolean dueWithin(Duration within) {
        Instant now = clock.instant();
        return queue.stream().anyMatch(t -> !t.isPeriodic() && !t.due.isAfter(now.plus(within)));
    }

    /** Waits until a one-shot task is queued to run within {@code within} from now; see {@link #awaitScheduled}. */
    void awaitDueWithin(Duration within) throws InterruptedException {
        awaitScheduled("due within " + within, d -> d.compareTo(within) <= 0);
    }

    private synchronized <T> Task<T> enqueue(Task<T> t) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("the manual scheduler is shut down");
        }
        t.seq = sequence++;
        queue.add(t);
        notifyAll();
        return t;
    }

    private Instant dueIn(long delay, TimeUnit unit) {
        return clock.instant().plusNanos(Math.max(0, unit.toNanos(delay)));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return enqueue(new Task<Void>(command, null, dueIn(delay, unit), null));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return enqueue(new Task<>(null, callable, dueIn(delay, unit), null));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return enqueue(new Task<Void>(command, null, dueIn(initialDelay, unit), Duration.ofNanos(unit.toNanos(period))));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return scheduleAtFixedRate(command, initialDelay, delay, unit);
    }

    /** Runs {@code command} at the next {@link #advance}, as a task due now. */
    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new ArrayList<>(queue);
        queue.clear();
        return left;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isShutdown();
    }

    /** A queued task; periodic ones go back in the queue, one period on, after each run. */
    private final class Task<V> extends FutureTask<V> implements RunnableScheduledFuture<V> {
        private final Duration period;
        private volatile Instant due;
        private long seq;

        Task(Runnable runnable, Callable<V> callable, Instant due, Duration period) {
            super(callable != null ? callable : java.util.concurrent.Executors.callable(runnable, null));
            this.due = due;
            this.period = period;
        }

        @Override
        public boolean isPeriodic() {
            return period != null;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(Duration.between(clock.instant(), due));
        }

        @Override
        public int compareTo(Delayed other) {
            Task<?> o = (Task<?>) other;
            int c = due.compareTo(o.due);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }

        @Override
        public void run() {
            if (!isPeriodic()) {
                super.run();
            } else if (runAndReset()) {
                due = due.plus(period);
                synchronized (ManualScheduler.this) {
                    if (!shutdown) {
                        queue.add(this);
                    }
                }
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            synchronized (ManualScheduler.this) {
                queue.remove(this);
            }
            return cancelled;
        }

        @Override
        public String toString() {
            return (isPeriodic() ? "every " + period + ", next" : "once") + " at " + due;
        }
    }
}
