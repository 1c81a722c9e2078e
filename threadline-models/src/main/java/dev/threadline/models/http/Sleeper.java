package dev.threadline.models.http;

import java.time.Duration;

/**
 * Waits between two attempts of a model call. The providers take one, so tests pass a sleeper that
 * records the delays it is asked for and returns at once.
 */
@FunctionalInterface
public interface Sleeper {

    /** Really waits, with {@link Thread#sleep(Duration)}. */
    Sleeper SYSTEM = Thread::sleep;

    /** Waits {@code delay}; an interrupt ends the wait (and the call) with {@link InterruptedException}. */
    void sleep(Duration delay) throws InterruptedException;
}
