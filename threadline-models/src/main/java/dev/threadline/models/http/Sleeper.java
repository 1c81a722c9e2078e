package dev.threadline.models.http;

import java.time.Duration;

/**
 * Waits between two attempts of a model call. The providers take one, so tests pass a sleeper that
 * records the delays it is asked for and returns at once.
 * Implementations are called from any thread and must be thread-safe.
 */
@FunctionalInterface
public interface Sleeper {

    /** Really waits, with {@link Thread#sleep(Duration)}. */
    Sleeper SYSTEM = Thread::sleep;

    /**
     * Waits {@code delay}.
     *
     * @throws InterruptedException when the thread is interrupted: it ends the wait, and the call
     */
    void sleep(Duration delay) throws InterruptedException;
}
