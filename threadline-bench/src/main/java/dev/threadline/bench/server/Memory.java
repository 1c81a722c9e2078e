package dev.threadline.bench.server;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of one process: its resident set (RSS, from {@code /proc/PID/status}) and its Java heap
 * in use right after a full GC (this JVM: {@code System.gc()} and the memory bean; a child JVM:
 * {@code jcmd PID GC.run} then {@code GC.heap_info}).
 */
interface Memory {
    /** Bytes resident, or -1 where {@code /proc} is missing. */
    long rssBytes();

    /** Bytes of heap in use after a full collection. */
    long heapAfterGcBytes() throws Exception;

    /** This JVM. */
    static Memory self() {
        return new Memory() {
            @Override
            public long rssBytes() {
                return rss(ProcessHandle.current().pid());
            }

            @Override
            public long heapAfterGcBytes() throws InterruptedException {
                for (int i = 0; i < 3; i++) {
                    System.gc();
                    Thread.sleep(50); // let reference processing and finalisation catch up between collections
                }
                return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            }
        };
    }

    /** The child JVM {@code pid}, through this JDK's {@code jcmd}. */
    static Memory of(long pid) {
        return new Memory() {
            @Override
            public long rssBytes() {
                return rss(pid);
            }

            @Override
            public long heapAfterGcBytes() throws IOException, InterruptedException {
                jcmd(pid, "GC.run");
                jcmd(pid, "GC.run");
                String info = jcmd(pid, "GC.heap_info");
                Matcher m = USED.matcher(info);
                if (!m.find()) {
                    throw new IOException("jcmd GC.heap_info printed no 'used NK': " + info);
                }
                return Long.parseLong(m.group(1)) * 1024;
            }
        };
    }

    Pattern USED = Pattern.compile("used (\\d+)K");

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
        Path jcmd = java.resolveSibling("jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(jcmd + " " + pid + " " + command + " failed: " + out);
        }
        return out;
    }

    private static long rss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
