package dev.threadline.server;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the requests being handled, so that shutdown stops listening only once their answers are
 * written (a turn that ends is not yet a response sent). Thread-safe.
 */
final class InFlight {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int count;

    void begin() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    void end() {
        lock.lock();
        try {
            if (count > 0 && --count == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} for no request to be in flight; false when some still are. */
    boolean awaitIdle(Duration timeout) {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (count > 0) {
                if (left <= 0) {
                    return false;
                }
                left = idle.awaitNanos(left);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
