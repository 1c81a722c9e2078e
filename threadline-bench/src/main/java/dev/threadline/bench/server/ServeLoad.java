package dev.threadline.bench.server;

import dev.threadline.bench.BenchMessage;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.runtime.RawSteps;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Threadline;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
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
 * folder and a summary in Markdown to stdout. Not thread-safe: one run per instance.
 */
public final class ServeLoad {
    private final LoadConfig config;
    private final Path out;
    private final Path work;
    private final boolean childServer;
    private final Path launcher;
    private final PrintStream log;

    ServeLoad(LoadConfig config, Path out, Path work, boolean childServer, Path launcher, PrintStream log) {
        this.config = config;
        this.out = out;
        this.work = work;
        this.childServer = childServer;
        this.launcher = launcher;
        this.log = log;
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
            ServeLoad run = new ServeLoad(smoke ? LoadConfig.smoke() : LoadConfig.full(), dir.toAbsolutePath(), work, child,
                    launcher, stderr);
            LoadResults r = run.run("threadline bench serve-load " + String.join(" ", args));
            LoadReport.print(r, stdout);
            stdout.printf(Locale.ROOT, "results: %s (and %s)%n", run.out.resolve("results.json"), String.join(", ", LoadReport.FILES));
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
        // Both alive at once and measured alternately, step by step, so that the other work on a shared
        // machine falls on both alike; the one not being measured is idle.
        try (ServerUnderTest server = start("main"); HttpTurns http = new HttpTurns(server, timeout());
             InProcessTurns in = new InProcessTurns(work.resolve("inprocess.db"))) {
            how = server.how();
            phase("HTTP at " + server.url() + " (" + how + "), beside the Java API in this JVM");
            warmUp(http);
            warmUp(in);
            OpenLoop.Measurement httpSat = saturation(http, "HTTP closed loop");
            OpenLoop.Measurement inSat = saturation(in, "in-process closed loop");
            OpenLoop.Measurement httpOne = oneSession(http, "HTTP one session");
            OpenLoop.Measurement inOne = oneSession(in, "in-process one session");
            double closed = Math.max(httpSat.offeredPerSec(), inSat.offeredPerSec());
            Search httpSearch = search(http, Math.max(closed, httpOne.offeredPerSec()));
            Search inSearch = search(in, Math.max(closed, inOne.offeredPerSec()));
            saturation = new LoadResults.Saturation(httpSearch.rate(), inSearch.rate(), httpSearch.steps(), inSearch.steps(),
                    httpSat, inSat, httpOne, inOne);
            for (double f : config.fractions()) {
                levels.add(new LoadResults.Level(f, rate(f * httpSearch.rate()), level(http, f, httpSearch.rate()),
                        level(in, f, httpSearch.rate())));
            }
            httpStreams = streamsOverHttp(http);
            inStreams = streamsInProcess(in);
        }
        LoadResults.Hot hot = hot(saturation.httpRate(), saturation.httpOneSession().offeredPerSec());
        LoadResults r = new LoadResults(LoadResults.Machine.here(), command, how, config, saturation, levels, hot,
                new LoadResults.Streams(config.streams(), httpStreams, inStreams), Math.round((System.nanoTime() - t0) / 1e8) / 10.0);
        Files.writeString(out.resolve("results.json"), Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n");
        LoadReport.plots(r, out);
        return r;
    }

    /** The highest rate kept up with, and the steps that found it. */
    record Search(double rate, List<OpenLoop.Measurement> steps) {}

    /**
     * The open-model search for saturation: from 60 % of the better of the two closed loops' rates, up by
     * 40 % a step while each step is kept up with ({@link OpenLoop.Measurement#keptUp}), then two halvings
     * of the interval between the last rate kept up with and the first not. With no step kept up, the
     * first step's steady answer rate.
     */
    private Search search(Turns t, double closedRate) throws Exception {
        List<String> ids = ids(t.name() + "-search", config.sessionsPerLevel());
        t.create(ids);
        List<OpenLoop.Measurement> steps = new ArrayList<>();
        double good = 0;
        double bad = 0;
        double r = rate(0.6 * closedRate);
        for (int i = 0; i < config.searchSteps(); i++) {
            OpenLoop.Measurement m = searchStep(t, ids, r);
            steps.add(m);
            if (!m.keptUp()) {
                bad = r;
                break;
            }
            good = r;
            double next = rate(r * 1.4);
            if (next <= r) {
                break; // at the cap
            }
            r = next;
        }
        for (int i = 0; i < 2 && good > 0 && bad > 0; i++) {
            double mid = rate((good + bad) / 2);
            OpenLoop.Measurement m = searchStep(t, ids, mid);
            steps.add(m);
            if (m.keptUp()) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        double found = good > 0 ? good : Math.max(0.5, steps.getFirst().steadyPerSec());
        step(String.format(Locale.ROOT, "  %s saturation: %.1f turns/s%s", t.name(), found,
                bad == 0 && config.maxRate() == 0 ? " (every step kept up: at least this)" : ""));
        return new Search(found, steps);
    }

    private OpenLoop.Measurement searchStep(Turns t, List<String> ids, double rate) throws Exception {
        OpenLoop.Measurement m = OpenLoop.open(t.name() + " search " + rate, rate, seconds(config.searchSeconds()),
                Duration.ofSeconds(config.timeoutSeconds() + 5), n -> t.turn(ids.get((int) (n % ids.size())), text(n)));
        step(String.format(Locale.ROOT, "  search %.1f turns/s: steady %.1f, p50 %.1f, p99 %.1f ms, errors %s -> %s", rate,
                m.steadyPerSec(), m.p50Millis(), m.p99Millis(), m.errors(), m.keptUp() ? "kept up" : "not kept up"));
        return m;
    }

    private ServerUnderTest start(String name) throws IOException, InterruptedException {
        Path db = work.resolve("serve-" + name + ".db");
        return start(db, name);
    }

    private ServerUnderTest start(Path db, String name) throws IOException, InterruptedException {
        int sse = Math.max(200, config.streams() + 100); // the default limit per tenant is 200 streams
        return childServer ? ServerUnderTest.child(launcher, db, work.resolve("serve-" + name + ".log"), Duration.ofMinutes(10), sse)
                : ServerUnderTest.inProcess(db, sse);
    }

    private void warmUp(Turns t) throws Exception {
        if (config.warmupSeconds() <= 0) {
            return;
        }
        List<String> ids = ids(t.name() + "-warm", config.saturationClients());
        t.create(ids);
        step("warm-up " + config.warmupSeconds() + " s");
        OpenLoop.closed("warm-up", config.saturationClients(), Duration.ofSeconds(config.warmupSeconds()),
                n -> t.turn(ids.get((int) (n % ids.size())), text(n)));
    }

    private OpenLoop.Measurement saturation(Turns t, String name) throws Exception {
        List<String> ids = ids(t.name() + "-sat", config.saturationClients());
        t.create(ids);
        step(name + ": " + config.saturationClients() + " clients, " + config.saturationSeconds() + " s");
        OpenLoop.Measurement m = OpenLoop.closed(name, config.saturationClients(), seconds(config.saturationSeconds()),
                n -> t.turn(ids.get((int) (n % ids.size())), text(n)));
        step(String.format(Locale.ROOT, "  %.1f turns/s, p50 %.1f ms, errors %d", m.offeredPerSec(), m.p50Millis(), m.errorCount()));
        if (m.ok() == 0) {
            throw new IllegalStateException(name + ": no turn succeeded: " + m.errors());
        }
        return m;
    }

    private OpenLoop.Measurement oneSession(Turns t, String name) throws Exception {
        List<String> ids = ids(t.name() + "-one", 1);
        t.create(ids);
        step(name + ": 1 client, " + config.saturationSeconds() / 2 + " s");
        return OpenLoop.closed(name, 1, seconds(config.saturationSeconds() / 2), n -> t.turn(ids.getFirst(), text(n)));
    }

    private OpenLoop.Measurement level(Turns t, double fraction, double satRate) throws Exception {
        double rate = rate(fraction * satRate);
        List<String> ids = ids(t.name() + "-" + Math.round(fraction * 100), config.sessionsPerLevel());
        t.create(ids);
        step(String.format(Locale.ROOT, "%s %.0f %%: %.1f turns/s for %s s", t.name(), fraction * 100, rate, config.levelSeconds()));
        OpenLoop.Measurement m = OpenLoop.open(t.name() + " " + Math.round(fraction * 100) + "%", rate,
                seconds(config.levelSeconds()), Duration.ofSeconds(config.timeoutSeconds() + 5),
                n -> t.turn(ids.get((int) (n % ids.size())), text(n)));
        step(String.format(Locale.ROOT, "  p50 %.1f  p99 %.1f  p99.9 %.1f ms, %d ok, errors %s", m.p50Millis(), m.p99Millis(),
                m.p999Millis(), m.ok(), m.errors()));
        return m;
    }

    private LoadResults.StreamRun streamsOverHttp(HttpTurns http) throws Exception {
        List<String> ids = ids("sse", config.streams());
        http.create(ids);
        step(config.streams() + " idle SSE streams");
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
        List<String> ids = ids("obs", config.streams());
        in.create(ids);
        step(config.streams() + " idle in-process observers");
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
        step(String.format(Locale.ROOT, "  %d open, heap +%.1f KiB/stream, RSS +%.1f KiB/stream, failed %s", s.opened,
                (heap1 - heap0) / 1024.0 / n, (rss1 - rss0) / 1024.0 / n, s.failed));
        return new LoadResults.StreamRun(s.opened, s.failed, Math.round(secs * 1000) / 1000.0, heap0, heap1, rss0, rss1,
                Math.round((heap1 - heap0) / (double) n), Math.round((rss1 - rss0) / (double) n));
    }

    /** The hot session alone, then beside the quiet ones, over HTTP and in-process. */
    private LoadResults.Hot hot(double satRate, double oneSessionRate) throws Exception {
        double rate = rate(Math.min(config.hotFraction() * oneSessionRate, 0.25 * satRate));
        double trickle = rate(config.quietTrickle() * satRate);
        phase(String.format(Locale.ROOT, "hot session at %.1f turns/s beside %d quiet ones trickling at %.1f turns/s", rate,
                config.quietSessions(), trickle));
        Path seed = work.resolve("quiet-seed.db");
        long t0 = System.nanoTime();
        seedQuiet(seed);
        double seedSecs = Math.round((System.nanoTime() - t0) / 1e7) / 100.0;
        step(String.format(Locale.ROOT, "  seeded in %.1f s", seedSecs));
        Path httpDb = copy(seed, work.resolve("serve-quiet.db"));
        Path inDb = copy(seed, work.resolve("inprocess-quiet.db"));

        OpenLoop.Measurement httpAlone;
        OpenLoop.Measurement inAlone;
        long[] httpMem;
        long[] inMem;
        try (ServerUnderTest server = start("hot"); HttpTurns h = new HttpTurns(server, timeout());
             InProcessTurns i = new InProcessTurns(work.resolve("inprocess-hot.db"))) {
            warmUp(h);
            warmUp(i);
            httpAlone = hotAlone(h, rate);
            inAlone = hotAlone(i, rate);
            httpMem = new long[] {h.memory().heapAfterGcBytes(), h.memory().rssBytes()};
            inMem = new long[] {i.memory().heapAfterGcBytes(), i.memory().rssBytes()};
        }
        LoadResults.HotRun http;
        LoadResults.HotRun in;
        try (ServerUnderTest server = start(httpDb, "quiet"); HttpTurns h = new HttpTurns(server, timeout());
             InProcessTurns i = new InProcessTurns(inDb)) {
            warmUp(h);
            warmUp(i);
            http = hotBeside(h, rate, trickle, httpAlone, httpMem[0], httpMem[1]);
            in = hotBeside(i, rate, trickle, inAlone, inMem[0], inMem[1]);
        }
        return new LoadResults.Hot(rate, trickle, config.quietSessions(), seedSecs, http, in);
    }

    private OpenLoop.Measurement hotAlone(Turns t, double rate) throws Exception {
        t.create(List.of("hot"));
        step(t.name() + " hot session alone");
        OpenLoop.Measurement m = OpenLoop.open(t.name() + " hot alone", rate, seconds(config.hotSeconds()),
                Duration.ofSeconds(config.timeoutSeconds() + 5), n -> t.turn("hot", text(n)));
        step(String.format(Locale.ROOT, "  p50 %.1f  p99 %.1f ms, errors %s", m.p50Millis(), m.p99Millis(), m.errors()));
        return m;
    }

    private LoadResults.HotRun hotBeside(Turns t, double rate, double trickle, OpenLoop.Measurement alone, long heapAlone,
                                         long rssAlone) throws Exception {
        t.create(List.of("hot"));
        step(t.name() + " hot session beside " + config.quietSessions() + " quiet ones");
        AtomicReference<Object> quiet = new AtomicReference<>();
        Thread trickling = Thread.ofPlatform().start(() -> {
            try {
                quiet.set(OpenLoop.open(t.name() + " quiet trickle", trickle, seconds(config.hotSeconds()),
                        Duration.ofSeconds(config.timeoutSeconds() + 5),
                        n -> t.turn(quietId((int) (n % config.quietSessions())), text(n))));
            } catch (InterruptedException | RuntimeException e) {
                quiet.set(e);
            }
        });
        OpenLoop.Measurement beside = OpenLoop.open(t.name() + " hot beside quiet", rate, seconds(config.hotSeconds()),
                Duration.ofSeconds(config.timeoutSeconds() + 5), n -> t.turn("hot", text(n)));
        trickling.join();
        if (!(quiet.get() instanceof OpenLoop.Measurement q)) {
            throw new IllegalStateException("the quiet trickle failed", (Throwable) quiet.get());
        }
        step(String.format(Locale.ROOT, "  hot p50 %.1f  p99 %.1f ms, errors %s; quiet p50 %.1f ms, errors %s",
                beside.p50Millis(), beside.p99Millis(), beside.errors(), q.p50Millis(), q.errors()));
        return new LoadResults.HotRun(alone, beside, q, heapAlone, t.memory().heapAfterGcBytes(), rssAlone, t.memory().rssBytes());
    }

    /** The quiet sessions, each with one exchange (a question and its answer), written straight through the Java API. */
    private void seedQuiet(Path db) throws Exception {
        List<Event> exchange = new ArrayList<>();
        exchange.addAll(BenchMessage.at(0).toEvents()); // the user's question
        exchange.addAll(BenchMessage.at(3).toEvents()); // the assistant's answer
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            int threads = 256; // concurrent creates share commits (the store's group commit)
            List<Thread> all = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int k = 0; k < threads; k++) {
                int first = k;
                all.add(Thread.ofVirtual().start(() -> {
                    try {
                        for (int i = first; i < config.quietSessions(); i += threads) {
                            Session s = tl.defaultTenant().create(quietId(i), SessionConfig.DEFAULT);
                            RawSteps.update(s, state -> exchange);
                        }
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : all) {
                t.join();
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("seeding the quiet sessions failed", failures.getFirst());
            }
        }
    }

    private static String quietId(int i) {
        return "quiet-" + i;
    }

    private static Path copy(Path db, Path to) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Path f = Path.of(db + suffix);
            if (Files.exists(f)) {
                Files.copy(f, Path.of(to + suffix), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }

    private double rate(double r) {
        double capped = config.maxRate() > 0 ? Math.min(config.maxRate(), r) : r;
        return Math.max(0.5, Math.round(capped * 10) / 10.0);
    }

    private Duration timeout() {
        return Duration.ofSeconds(config.timeoutSeconds());
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }

    /** A turn with a tool call: the scripted model answers it with the calculate skill. */
    static String text(long n) {
        return "what is (" + n + "+3)*7";
    }

    private static List<String> ids(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + "-" + i).toList();
    }

    private void phase(String s) {
        log.println("serve-load: " + s);
    }

    private void step(String s) {
        log.println("serve-load:   " + s);
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
