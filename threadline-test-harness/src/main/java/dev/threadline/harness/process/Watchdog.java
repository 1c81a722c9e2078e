package dev.threadline.harness.process;

import java.time.Duration;

/**
 * Ends a child JVM by itself after a bound, so no child outlives a test that died without killing it. Stateless: safe
 * from any thread.
 */
public final class Watchdog {
    private Watchdog() {}

    /** Halts this JVM with exit code 3 once {@code bound} has passed, from a daemon thread. */
    public static void exitAfter(Duration bound) {
        Thread.ofPlatform().daemon().name("watchdog").start(() -> {
            try {
                Thread.sleep(bound); // a lifetime bound, not synchronisation
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("child ran longer than " + bound + "; exiting");
            Runtime.getRuntime().halt(3);
        });
    }
}
