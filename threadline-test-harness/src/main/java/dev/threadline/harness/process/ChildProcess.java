package dev.threadline.harness.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A child JVM run by a test: started with this JVM's own {@code java} and class path, its stdout read
 * line by line on a thread of its own (each line kept with the time it arrived, and handed to an optional
 * listener), its stderr written to a file. The test synchronises on the child's output only, always
 * with a bound ({@link #awaitLine}), and can pause (SIGSTOP), resume (SIGCONT) and kill (SIGKILL) it.
 * Closing kills the child if it still runs. Thread-safe.
 */
public final class ChildProcess implements AutoCloseable {
    private static final int TAIL = 30;

    private final String name;
    private final Process process;
    private final Path stderr;
    private final Writer stdin;
    private final Thread reader;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<Line> lines = new ArrayList<>();
    private boolean eof;
    private volatile RuntimeException listenerFailure;
    private final long startedNanos = System.nanoTime();

    private ChildProcess(String name, Process process, Path stderr, Consumer<Line> listener) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.reader = Thread.ofPlatform().daemon().name("stdout of " + name).start(() -> read(listener));
    }

    /** Starts describing a child that runs {@code mainClass} (which must be on this JVM's class path). */
    public static ChildSpec of(Class<?> mainClass) {
        return new ChildSpec(mainClass);
    }

    /** Starts a child for a spec; used by {@link ChildSpec#start}. */
    static ChildProcess start(String name, List<String> command, Path stderr, Consumer<Line> listener) {
        try {
            Files.createDirectories(stderr.toAbsolutePath().getParent());
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(stderr.toFile())).start();
            return new ChildProcess(name, p, stderr, listener);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start child " + name + ": " + command, e);
        }
    }

    private void read(Consumer<Line> listener) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String text;
            while ((text = in.readLine()) != null) {
                Line line;
                lock.lock();
                try {
                    line = new Line(lines.size(), text, System.nanoTime());
                    lines.add(line);
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
                if (listener != null) {
                    try {
                        listener.accept(line);
                    } catch (RuntimeException e) { // keep reading: the child must not block on a full pipe
                        if (listenerFailure == null) {
                            listenerFailure = e;
                        }
                        signal();
                    }
                }
            }
        } catch (IOException e) {
            // the pipe broke: the child is gone, which is what eof says
        } finally {
            lock.lock();
            try {
                eof = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The first exception the line listener threw, or null. The reader goes on reading after one, and
     * every later {@link #awaitLine} fails with it.
     */
    public RuntimeException listenerFailure() {
        return listenerFailure;
    }

    /** The name given at start (for reports and history). */
    public String name() {
        return name;
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the child has not exited yet (a paused child is alive). */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** How many lines the child printed so far. */
    public int lineCount() {
        lock.lock();
        try {
            return lines.size();
        } finally {
            lock.unlock();
        }
    }

    /** The lines printed so far. */
    public List<Line> lines() {
        lock.lock();
        try {
            return List.copyOf(lines);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the first line at index {@code fromIndex} or later that matches, at most {@code timeout}.
     *
     * @param what a description of the awaited line, for the failure message
     * @throws AssertionError when the timeout passes, the child's output ends first or the line listener
     *                        failed; the message holds the child's last lines and the tail of its stderr
     */
    public Line awaitLine(int fromIndex, String what, Predicate<String> matches, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            int i = Math.max(0, fromIndex);
            while (true) {
                if (listenerFailure != null) {
                    throw new AssertionError(describe("the line listener failed on a line of this child"), listenerFailure);
                }
                for (; i < lines.size(); i++) {
                    if (matches.test(lines.get(i).text())) {
                        return lines.get(i);
                    }
                }
                long left = deadline - System.nanoTime();
                if (eof || left <= 0) {
                    throw new AssertionError(describe((eof ? "output ended" : "no line in " + timeout.toMillis() + " ms")
                            + " while waiting for " + what));
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(describe("interrupted while waiting for " + what), e);
        } finally {
            lock.unlock();
        }
    }

    /** Waits for a line starting with {@code prefix}, from the first line on. */
    public Line awaitPrefix(String prefix, Duration timeout) {
        return awaitLine(0, "a line starting with '" + prefix + "'", s -> s.startsWith(prefix), timeout);
    }

    /** Writes one line to the child's stdin. */
    public void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + name + "'s stdin", e);
        }
    }

    /**
     * Pauses the child with SIGSTOP; returns once the OS reports it stopped (at most 5 s, where {@code /proc}
     * tells).
     *
     * @throws AssertionError when it does not stop
     */
    public void pause() {
        Signals.send(pid(), "STOP");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        char state;
        while ((state = Signals.state(pid())) != 'T' && state != 't' && state != '?') {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(describe("still in state " + state + " 5 s after SIGSTOP"));
            }
            LockSupport.parkNanos(200_000L); // polling the OS's view of the process, not timing the test
        }
    }

    /** Resumes a paused child with SIGCONT. */
    public void resume() {
        Signals.send(pid(), "CONT");
    }

    /**
     * Kills the child with SIGKILL (paused or not) and waits for it to be gone and its output read (at most 30 s).
     *
     * @throws AssertionError when it does not die
     */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /**
     * Waits for the child to exit and its stdout to be read to the end.
     *
     * @return the exit code
     * @throws AssertionError when it has not exited within {@code timeout}
     */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(describe("did not exit within " + timeout.toMillis() + " ms"));
            }
            reader.join(timeout.toMillis());
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(describe("interrupted while waiting for the exit"), e);
        }
    }

    /** The last lines of the child's stderr (for failure messages). */
    public String stderrTail() {
        try {
            List<String> all = Files.exists(stderr) ? Files.readAllLines(stderr, StandardCharsets.UTF_8) : List.of();
            return String.join("\n", all.subList(Math.max(0, all.size() - TAIL), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(stderr unreadable: " + e.getMessage() + ")";
        }
    }

    /** A failure message: what happened, the child's last stdout lines and its stderr tail. */
    public String describe(String problem) {
        List<Line> all = lines();
        StringBuilder b = new StringBuilder(name).append(" (pid ").append(pid()).append("): ").append(problem)
                .append(String.format(" [at %+d ms]", (System.nanoTime() - startedNanos) / 1_000_000))
                .append("\n--- last stdout lines (ms since the child started) ---\n");
        all.subList(Math.max(0, all.size() - TAIL), all.size()).forEach(l -> b.append(String.format("%+7d ms  ",
                (l.receivedNanos() - startedNanos) / 1_000_000)).append(l.text()).append('\n'));
        return b.append("--- stderr tail (").append(stderr).append(") ---\n").append(stderrTail()).toString();
    }

    /** Kills the child if it still runs (resuming it first is not needed: SIGKILL ends a stopped process too). */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
