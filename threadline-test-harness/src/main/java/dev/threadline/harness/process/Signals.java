package dev.threadline.harness.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * POSIX job-control signals for child processes, through the {@code kill} command (the JDK can only
 * SIGTERM and SIGKILL). Linux and macOS. Stateless: safe from any thread.
 */
public final class Signals {
    private Signals() {}

    /**
     * Sends {@code signal} (a name such as {@code STOP} or {@code CONT}) to {@code pid} and waits for the
     * {@code kill} command to finish (at most 10 s).
     *
     * @throws IllegalStateException when {@code kill} fails or hangs
     */
    public static void send(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish in 10 s");
            }
            if (kill.exitValue() != 0) {
                String out = new String(kill.getInputStream().readAllBytes()).trim();
                throw new IllegalStateException("kill -" + signal + " " + pid + " exited " + kill.exitValue() + ": " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending " + signal + " to " + pid, e);
        }
    }

    /**
     * The process's scheduler state from {@code /proc/<pid>/stat} ('R' running, 'S' sleeping, 'T' stopped,
     * 'Z' zombie, ...), or '?' where there is no {@code /proc} (macOS) or the process is gone.
     */
    public static char state(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            String s = Files.readString(stat);
            int close = s.lastIndexOf(')'); // the command name in parentheses may hold spaces
            return close < 0 || close + 2 >= s.length() ? '?' : s.charAt(close + 2);
        } catch (IOException e) {
            return '?';
        }
    }
}
