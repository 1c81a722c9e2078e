package dev.threadline.bench.server;

import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code threadline bench serve-load}: the load benchmark of {@code threadline serve} on loopback,
 * each figure beside the same turns through the Java API in this JVM at the same arrival rates.
 *
 * <ol>
 *   <li>saturation: a closed loop of turns with a tool call (the scripted model's calculator turn);</li>
 *   <li>the open model at 25 %, 50 %, 75 %, 90 %, 100 % and 120 % of the HTTP saturation: p50 ... p99.9
 *       from each request's intended start, and errors;</li>
 *   <li>one hot session alone, then beside 10,000 quiet ones (seeded through the Java API before the
 *       server starts) that trickle;</li>
 *   <li>1,000 idle SSE streams: the server's heap (after GC) and RSS per stream.</li>
 * </ol>
 *
 * Writes {@code results.json}, {@code latency-vs-load.svg} and {@code hot-session.svg} to the output
 * folder and a summary in Markdown to stdout. The search for saturation is {@link SaturationSearch}, the
 * hot-session phase {@link HotSession}; what the phases share (sizes, servers, rates, log) {@link LoadRun}.
 * Not thread-safe: one run per instance.
 */
public final class ServeLoad {
    private final LoadRun run;
    private final LoadConfig config;
    private final Path out;

    ServeLoad(LoadConfig config, Path out, Path work, boolean childServer, Path launcher, PrintStream log) {
        this.run = new LoadRun(config, work, childServer, launcher, log);
        this.config = config;
        this.out = out;
    }

    /**
     * Runs {@code threadline bench serve-load [--out DIR] [--smoke] [--in-process-server] [--launcher PATH]};
     * returns the exit status (0, or 2 on a usage error). Thread-safe (each call runs on its own).
     *
     * @throws Exception when a server cannot start or a phase fails outright
     */
    public static int main(String[] args, PrintStream stdout, PrintStream stderr) throws Exception {
        Path dir = Path.of("bench-results", "server");
        boolean smoke = false;
        boolean child = true;
        Path launcher = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> dir = Path.of(value(args, ++i, "--out"));
                case "--smoke" -> smoke = true;
                case "--in-process-server" -> child = false;
                case "--launcher" -> launcher = Path.of(value(args, ++i, "--launcher"));
                case "-h", "--help" -> {
                    stdout.println("usage: threadline bench serve-load [--out DIR] [--smoke] [--in-process-server] [--launcher PATH]");
                    return 0;
                }
                default -> {
                    stderr.println("threadline bench serve-load: unknown option '" + args[i] + "' (try --help)");
                    return 2;
                }
            }
        }
        if (child && launcher == null) {
            launcher = findLauncher();
        }
        Path work = Files.createTempDirectory("threadline-serve-load");
        try {
            ServeLoad load = new ServeLoad(smoke ? LoadConfig.smoke() : LoadConfig.full(), dir.toAbsolutePath(), work, child,
                    launcher, stderr);
            LoadResults r = load.run("threadline bench serve-load " + String.join(" ", args));
            LoadReport.print(r, stdout);
            stdout.printf(Locale.ROOT, "results: %s (and %s)%n", load.out.resolve("results.json"), String.join(", ", LoadReport.FILES));
            return 0;
        } finally {
            deleteTree(work);
        }
    }

    LoadResults run(String command) throws Exception {
        long t0 = System.nanoTime();
        Files.createDirectories(out);
        String how;
        List<LoadResults.Level> levels = new ArrayList<>();
        LoadResults.Saturation saturation;
        LoadResults.StreamRun httpStreams;
        LoadResults.StreamRun inStreams;
        SaturationSearch search = new SaturationSearch(run);
        // Both alive at once and measured alternately, step by step, so that the other work on a shared
        // machine falls on both alike; the one not being measured is idle.
        try (ServerUnderTest server = run.start("main"); HttpTurns http = new HttpTurns(server, run.timeout());
             InProcessTurns in = new InProcessTurns(run.work("inprocess.db"))) {
            how = server.how();
            run.phase("HTTP at " + server.url() + " (" + how + "), beside the Java API in this JVM");
            run.warmUp(http);
            run.warmUp(in);
            OpenLoop.Measurement httpSat = saturation(http, "HTTP closed loop");
            OpenLoop.Measurement inSat = saturation(in, "in-process closed loop");
            OpenLoop.Measurement httpOne = oneSession(http, "HTTP one session");
            OpenLoop.Measurement inOne = oneSession(in, "in-process one session");
            double closed = Math.max(httpSat.offeredPerSec(), inSat.offeredPerSec());
            SaturationSearch.Found httpSearch = search.search(http, Math.max(closed, httpOne.offeredPerSec()));
            SaturationSearch.Found inSearch = search.search(in, Math.max(closed, inOne.offeredPerSec()));
            saturation = new LoadResults.Saturation(httpSearch.rate(), inSearch.rate(), httpSearch.steps(), inSearch.steps(),
                    httpSat, inSat, httpOne, inOne);
            for (double f : config.fractions()) {
                levels.add(new LoadResults.Level(f, run.rate(f * httpSearch.rate()), level(http, f, httpSearch.rate()),
                        level(in, f, httpSearch.rate())));
            }
            httpStreams = streamsOverHttp(http);
            inStreams = streamsInProcess(in);
        }
        LoadResults.Hot hot = new HotSession(run).measure(saturation.httpRate(), saturation.httpOneSession().offeredPerSec());
        LoadResults r = new LoadResults(LoadResults.Machine.here(), command, how, config, saturation, levels, hot,
                new LoadResults.Streams(config.streams(), httpStreams, inStreams), Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
        Files.writeString(out.resolve("results.json"), Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n");
        LoadReport.plots(r, out);
        return r;
    }

    private OpenLoop.Measurement saturation(Turns t, String name) throws Exception {
        List<String> ids = LoadRun.ids(t.name() + "-sat", config.saturationClients());
        t.create(ids);
        run.step(name + ": " + config.saturationClients() + " clients, " + config.saturationSeconds() + " s");
        OpenLoop.Measurement m = OpenLoop.closed(name, config.saturationClients(), LoadRun.seconds(config.saturationSeconds()),
                n -> t.turn(ids.get((int) (n % ids.size())), LoadRun.text(n)));
        run.step(String.format(Locale.ROOT, "  %.1f turns/s, p50 %.1f ms, errors %d", m.offeredPerSec(), m.p50Millis(), m.errorCount()));
        if (m.ok() == 0) {
            throw new IllegalStateException(name + ": no turn succeeded: " + m.errors());
        }
        return m;
    }

    private OpenLoop.Measurement oneSession(Turns t, String name) throws Exception {
        List<String> ids = LoadRun.ids(t.name() + "-one", 1);
        t.create(ids);
        run.step(name + ": 1 client, " + config.saturationSeconds() / 2 + " s");
        return OpenLoop.closed(name, 1, LoadRun.seconds(config.saturationSeconds() / 2), n -> t.turn(ids.getFirst(), LoadRun.text(n)));
    }

    private OpenLoop.Measurement level(Turns t, double fraction, double satRate) throws Exception {
        double rate = run.rate(fraction * satRate);
        List<String> ids = LoadRun.ids(t.name() + "-" + Math.round(fraction * 100), config.sessionsPerLevel());
        t.create(ids);
        run.step(String.format(Locale.ROOT, "%s %.0f %%: %.1f turns/s for %s s", t.name(), fraction * 100, rate, config.levelSeconds()));
        OpenLoop.Measurement m = OpenLoop.open(t.name() + " " + Math.round(fraction * 100) + "%", rate,
                LoadRun.seconds(config.levelSeconds()), run.drain(),
                n -> t.turn(ids.get((int) (n % ids.size())), LoadRun.text(n)));
        run.step(String.format(Locale.ROOT, "  p50 %.1f  p99 %.1f  p99.9 %.1f ms, %d ok, errors %s", m.p50Millis(), m.p99Millis(),
                m.p999Millis(), m.ok(), m.errors()));
        return m;
    }

    private LoadResults.StreamRun streamsOverHttp(HttpTurns http) throws Exception {
        List<String> ids = LoadRun.ids("sse", config.streams());
        http.create(ids);
        run.step(config.streams() + " idle SSE streams");
        Memory mem = http.memory();
        long heap0 = mem.heapAfterGcBytes();
        long rss0 = mem.rssBytes();
        try (IdleStreams streams = new IdleStreams()) {
            long t0 = System.nanoTime();
            streams.openHttp(http.url(), http.key(), ids);
            double secs = (System.nanoTime() - t0) / 1e9;
            long heap1 = mem.heapAfterGcBytes();
            long rss1 = mem.rssBytes();
            return streamRun(streams, secs, heap0, heap1, rss0, rss1);
        }
    }

    private LoadResults.StreamRun streamsInProcess(InProcessTurns in) throws Exception {
        List<String> ids = LoadRun.ids("obs", config.streams());
        in.create(ids);
        run.step(config.streams() + " idle in-process observers");
        List<Session> sessions = ids.stream().map(in::session).toList();
        Memory mem = in.memory();
        long heap0 = mem.heapAfterGcBytes();
        long rss0 = mem.rssBytes();
        try (IdleStreams streams = new IdleStreams()) {
            long t0 = System.nanoTime();
            streams.openInProcess(sessions, Duration.ofSeconds(15));
            double secs = (System.nanoTime() - t0) / 1e9;
            Thread.sleep(500); // not synchronisation: lets every observer reach its wait before the heap is measured
            long heap1 = mem.heapAfterGcBytes();
            long rss1 = mem.rssBytes();
            return streamRun(streams, secs, heap0, heap1, rss0, rss1);
        }
    }

    private LoadResults.StreamRun streamRun(IdleStreams s, double secs, long heap0, long heap1, long rss0, long rss1) {
        int n = Math.max(1, s.opened);
        run.step(String.format(Locale.ROOT, "  %d open, heap +%.1f KiB/stream, RSS +%.1f KiB/stream, failed %s", s.opened,
                (heap1 - heap0) / 1024.0 / n, (rss1 - rss0) / 1024.0 / n, s.failed));
        return new LoadResults.StreamRun(s.opened, s.failed, Math.round(secs * 1000) / 1000.0, heap0, heap1, rss0, rss1,
                Math.round((heap1 - heap0) / (double) n), Math.round((rss1 - rss0) / (double) n));
    }

    /** The {@code threadline} launcher of the source tree this class was loaded from. */
    static Path findLauncher() throws Exception {
        Path here = Path.of(ServeLoad.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            Path l = p.resolve("threadline");
            if (Files.isRegularFile(l) && Files.isExecutable(l) && Files.exists(p.resolve("pom.xml"))) {
                return l;
            }
        }
        throw new IOException("no threadline launcher above " + here + "; give --launcher PATH (or --in-process-server)");
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
