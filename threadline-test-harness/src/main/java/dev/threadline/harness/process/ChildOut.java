package dev.threadline.harness.process;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Whole lines on stdout, flushed at once, from any thread of a child. */
public final class ChildOut {
    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
            StandardCharsets.UTF_8);

    private ChildOut() {}

    /** Prints {@code line} to stdout and flushes it, whole, whatever other threads print. */
    public static void line(String line) {
        synchronized (OUT) {
            OUT.println(line);
            OUT.flush();
        }
    }
}
