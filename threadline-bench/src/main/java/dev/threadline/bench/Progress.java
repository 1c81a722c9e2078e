package dev.threadline.bench;

import java.io.PrintStream;

/** A one-line progress bar on stderr: the phase, a bar of the work done in it, and the elapsed time. */
public final class Progress {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private String phase = "";
    private long total = 1;
    private long done;
    private long lastDraw;

    public Progress(PrintStream err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    /** Starts a phase of {@code total} units. */
    public synchronized void phase(String name, long total) {
        finishLine();
        this.phase = name;
        this.total = Math.max(1, total);
        this.done = 0;
        draw(true);
    }

    /** Records {@code n} more units done. Thread-safe; redraws at most ten times a second. */
    public synchronized void advance(long n) {
        done = Math.min(total, done + n);
        draw(done == total);
    }

    /** Ends the current line. */
    public synchronized void finishLine() {
        if (enabled && !phase.isEmpty()) {
            draw(true);
            err.println();
            phase = "";
        }
    }

    private void draw(boolean force) {
        long now = System.nanoTime();
        if (!enabled || (!force && now - lastDraw < 100_000_000L)) {
            return;
        }
        lastDraw = now;
        int filled = (int) (WIDTH * done / total);
        String bar = "#".repeat(filled) + "-".repeat(WIDTH - filled);
        err.printf("\r%-60s [%s] %3d%%  %5.1fs", cut(phase), bar, 100 * done / total, (now - start) / 1e9);
        err.flush();
    }

    private static String cut(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
