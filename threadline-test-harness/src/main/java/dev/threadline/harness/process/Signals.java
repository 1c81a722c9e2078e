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
        if (ignores(pid, signal)) {
            throw new IllegalStateException("process " + pid + " ignores SIG" + signal + ", so sending it tests nothing: it"
                    + " inherited that from the test run, which was started in the background of a non-interactive shell"
                    + " (`cmd &` there ignores SIGINT and SIGQUIT for cmd and all it starts); run ./test in the foreground");
        }
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
     * True when {@code pid} ignores the shutdown signal {@code signal} ({@code INT}, {@code QUIT}, {@code TERM} or
     * {@code HUP}) by its {@code SigIgn} mask in {@code /proc/<pid>/status}; false for other signals, where there
     * is no {@code /proc}, or when the process is gone. A JVM that inherits an ignored SIGINT keeps it ignored
     * and never calls its handler for it.
     */
    public static boolean ignores(long pid, String signal) {
        int number = switch (signal) {
            case "HUP" -> 1;
            case "INT" -> 2;
            case "QUIT" -> 3;
            case "TERM" -> 15;
            default -> 0;
        };
        if (number == 0) {
            return false;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << (number - 1))) != 0;
                }
            }
            return false;
        } catch (IOException | NumberFormatException e) {
            return false;
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
