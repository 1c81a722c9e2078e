package dev.threadline.cli;

import static org.junit.jupiter.api.Assertions.fail;

import dev.threadline.harness.process.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code threadline ARGS} (this test class path) in a real terminal: a detached tmux session of 120×40
 * on a tmux server of its own ({@code -S} with a socket in the test's directory, the server killed on
 * close, so a user's tmux is never touched). The test types with {@code send-keys} and reads the screen with
 * {@code capture-pane}, polling with a bounded deadline. The pane stays after the program exits, so its
 * last screen can be read; a shell around the program notes its exit status. The program's stderr goes
 * to {@code DIR/terminal.err}.
 * Not thread-safe.
 */
final class TmuxTerminal implements AutoCloseable {
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final String tmux;
    private final String socket;
    private final Path err;
    private final Path exit;

    private TmuxTerminal(String tmux, String socket, Path err, Path exit) {
        this.tmux = tmux;
        this.socket = socket;
        this.err = err;
        this.exit = exit;
    }

    /**
     * Starts {@code threadline args} in a new terminal; the test is skipped when tmux is missing (a
     * failure when CI=true).
     */
    static TmuxTerminal start(Path dir, String... args) throws IOException {
        String tmux = tool("tmux");
        String socket = dir.resolve("tmux-" + RUNS.incrementAndGet() + ".sock").toString();
        Path err = dir.resolve("terminal.err");
        List<String> command = ChildProcess.of(Main.class).args(args).command();
        Path argfile = dir.resolve("java.args"); // the class path is longer than a tmux command may be
        Files.write(argfile, command.subList(1, command.size()).stream().map(TmuxTerminal::quoted).toList(), StandardCharsets.UTF_8);
        Path script = dir.resolve("threadline.sh");
        Path exit = dir.resolve("terminal.exit");
        // the shell waits for the program and notes its status (tmux 3.3 may mark a pane dead before it knows
        // the status); its trap keeps Ctrl-C, sent to the whole foreground group, from ending the shell
        Files.writeString(script, "#!/bin/sh\ntrap : INT\n" + shell(command.get(0)) + " @" + shell(argfile.toString())
                + " 2>" + shell(err.toString()) + "\necho $? >" + shell(exit + ".part") + " && mv " + shell(exit + ".part")
                + " " + shell(exit.toString()) + "\n");
        script.toFile().setExecutable(true);
        Path conf = dir.resolve("tmux.conf");
        Files.writeString(conf, "set -g remain-on-exit on\nset -g history-limit 5000\n");
        TmuxTerminal t = new TmuxTerminal(tmux, socket, err, exit);
        t.tmux("-f", conf.toString(), "new-session", "-d", "-x", "120", "-y", "40", "-s", "t", script.toString());
        return t;
    }

    /** Types {@code text} and Enter. */
    void type(String text) {
        tmux("send-keys", "-t", "t", "-l", text);
        tmux("send-keys", "-t", "t", "Enter");
    }

    /** Presses a key, e.g. {@code C-c}. */
    void press(String key) {
        tmux("send-keys", "-t", "t", key);
    }

    /** The screen and its scrollback, wrapped lines joined, trailing spaces and blank lines dropped. */
    List<String> screen() {
        List<String> lines = new ArrayList<>(tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t").lines().map(String::stripTrailing).toList());
        while (!lines.isEmpty() && lines.getLast().isEmpty()) {
            lines.removeLast();
        }
        return lines;
    }

    /** Waits until the screen matches, at most {@code timeout}; returns that screen. */
    List<String> await(String what, Predicate<List<String>> matches, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> s = screen();
            if (matches.test(s)) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(describe("no match in " + timeout.toMillis() + " ms while waiting for " + what, s));
            }
            LockSupport.parkNanos(POLL_NANOS); // the pace of the poll, not a synchronisation
        }
    }

    /** Waits until the program exited; returns its exit status. */
    int awaitExit(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String status = Files.exists(exit) ? Files.readString(exit) : "";
            if (status.endsWith("\n")) {
                return Integer.parseInt(status.strip());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(describe("the program did not exit in " + timeout.toMillis() + " ms", screen()));
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** A failure message: {@code what}, the screen and the program's stderr. */
    String describe(String what, List<String> screen) {
        String stderr;
        try {
            stderr = Files.exists(err) ? Files.readString(err) : "(none)";
        } catch (IOException e) {
            stderr = "(unreadable: " + e + ")";
        }
        return what + "\n--- screen ---\n" + String.join("\n", screen) + "\n--- stderr ---\n" + stderr;
    }

    /** Kills the terminal's tmux server (and so the program, if it still runs). */
    @Override
    public void close() {
        try {
            run(List.of(tmux, "-S", socket, "kill-server"));
        } catch (RuntimeException e) {
            // the server is gone already
        }
    }

    private String tmux(String... args) {
        List<String> cmd = new ArrayList<>(List.of(tmux, "-S", socket));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static String run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("tmux did not answer in 30 s: " + cmd);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("tmux failed (" + p.exitValue() + "): " + cmd.subList(3, cmd.size()) + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running tmux", e);
        }
    }

    /** The executable on PATH, or the test is skipped saying how to install it (a failure when CI=true). */
    private static String tool(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        String how = "the terminal tests need " + name + " on PATH (apt-get install " + name + ")";
        if ("true".equals(System.getenv("CI"))) {
            fail(how + "; CI=true makes this a failure");
        }
        Assumptions.abort(how);
        return null;
    }

    private static String quoted(String arg) { // one argument of a java @argfile
        return "\"" + arg.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String shell(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
