package dev.threadline.bench.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/**
 * What every phase of one {@code serve-load} run shares: its sizes, its work folder, how it starts the
 * server under test (a child {@code threadline serve} or one in this JVM), the arrival rates it may
 * use, the turns it sends, and its progress log. Not thread-safe: one run.
 */
final class LoadRun {
    final LoadConfig config;
    private final Path work;
    private final boolean childServer;
    private final Path launcher;
    private final PrintStream log;

    private final String command;

    LoadRun(LoadConfig config, Path work, boolean childServer, Path launcher, PrintStream log) {
        this(config, work, childServer, launcher, log, "serve-load");
    }

    /** {@code command} names the benchmark in the progress log. */
    LoadRun(LoadConfig config, Path work, boolean childServer, Path launcher, PrintStream log, String command) {
        this.command = command;
        this.config = config;
        this.work = work;
        this.childServer = childServer;
        this.launcher = launcher;
        this.log = log;
    }

    /** A file or folder of the run's work folder. */
    Path work(String name) {
        return work.resolve(name);
    }

    /** A new server under test on its own new database {@code serve-NAME.db}. */
    ServerUnderTest start(String name) throws IOException, InterruptedException {
        return start(work("serve-" + name + ".db"), name);
    }

    /** A new server under test on {@code db}. */
    ServerUnderTest start(Path db, String name) throws IOException, InterruptedException {
        int sse = Math.max(200, config.streams() + 100); // the default limit per tenant is 200 streams
        return childServer ? ServerUnderTest.child(launcher, db, work("serve-" + name + ".log"), Duration.ofMinutes(10), sse)
                : ServerUnderTest.inProcess(db, sse);
    }

    /** The closed-loop warm-up of a new JVM or runtime before it is measured (none when the config has none). */
    void warmUp(Turns t) throws Exception {
        if (config.warmupSeconds() <= 0) {
            return;
        }
        List<String> ids = ids(t.name() + "-warm", config.saturationClients());
        t.create(ids);
        step("warm-up " + config.warmupSeconds() + " s");
        OpenLoop.closed("warm-up", config.saturationClients(), Duration.ofSeconds(config.warmupSeconds()),
                n -> t.turn(ids.get((int) (n % ids.size())), text(n)));
    }

    /** {@code r} capped by the config's highest rate and rounded to 0.1 turns/s, at least 0.5. */
    double rate(double r) {
        double capped = config.maxRate() > 0 ? Math.min(config.maxRate(), r) : r;
        return Math.max(0.5, Math.round(capped * 10) / 10.0);
    }

    /** How long a request may go unanswered. */
    Duration timeout() {
        return Duration.ofSeconds(config.timeoutSeconds());
    }

    /** How long an open loop waits for its last answers. */
    Duration drain() {
        return Duration.ofSeconds(config.timeoutSeconds() + 5);
    }

    static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }

    /** A turn with a tool call: the scripted model answers it with the calculate skill. */
    static String text(long n) {
        return "what is (" + n + "+3)*7";
    }

    static List<String> ids(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + "-" + i).toList();
    }

    void phase(String s) {
        log.println(command + ": " + s);
    }

    void step(String s) {
        log.println(command + ":   " + s);
    }
}
