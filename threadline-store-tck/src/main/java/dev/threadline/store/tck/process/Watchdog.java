package dev.threadline.store.tck.process;

import java.time.Duration;

/** Ends a child JVM by itself after a bound, so no child outlives a test that died without killing it. */
public final class Watchdog {
    private Watchdog() {}

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
