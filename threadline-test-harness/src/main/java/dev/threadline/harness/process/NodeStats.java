package dev.threadline.harness.process;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a child JVM uses, as a soak samples it: the heap in use after a full GC, live threads, open file
 * descriptors and resident memory (the last two from {@code /proc/self}, Linux; -1 elsewhere). A child
 * prints it as one {@code STATS <heap> <threads> <fds> <rss>} line when told {@code STATS} on stdin.
 *
 * @param heapBytes heap in use after {@link System#gc()}
 * @param threads   live threads (platform threads; virtual threads are not counted by the JVM)
 * @param fds       open file descriptors, or -1
 * @param rssBytes  resident set size, or -1
 */
public record NodeStats(long heapBytes, int threads, int fds, long rssBytes) {
    /** Measures this JVM now (runs a full GC first, so the heap figure is what is live). */
    public static NodeStats measure() {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        int fds;
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            fds = (int) s.count();
        } catch (IOException | java.io.UncheckedIOException e) {
            fds = -1;
        }
        return new NodeStats(heap, threads, fds, rss());
    }

    private static long rss() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmRSS:")) {
                    return Long.parseLong(l.substring(6).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: unknown
        }
        return -1;
    }

    /** The {@code STATS ...} line a child prints. */
    public String line() {
        return "STATS " + heapBytes + " " + threads + " " + fds + " " + rssBytes;
    }

    /**
     * Reads a {@code STATS ...} line.
     *
     * @throws IllegalArgumentException when it is not one
     */
    public static NodeStats parse(String line) {
        String[] p = line.split(" ");
        if (p.length != 5 || !p[0].equals("STATS")) {
            throw new IllegalArgumentException("not a STATS line: " + line);
        }
        return new NodeStats(Long.parseLong(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]), Long.parseLong(p[4]));
    }
}
