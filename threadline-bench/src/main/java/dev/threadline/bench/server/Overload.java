package dev.threadline.bench.server;

import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code threadline bench overload} (issue 25): two {@code threadline serve} nodes on one store (a
 * SQLite file by default, or {@code --store URL}), sharing their sessions; the saturation of the two
 * ({@link SaturationSearch} over {@link NodePair}, turns round robin), then an open loop at {@code --load}
 * (1.2) times it for {@code --seconds}, and half-way one node is SIGKILLed. Turns that fail on the dead
 * node's connection are sent again to the survivor under the same {@code Idempotency-Key}. After the
 * survivor has stopped, every session's journal is read back: each acknowledged turn's user message must
 * be there exactly once, and no turn twice. {@link OverloadReport} cuts the latencies into phases (before
 * the kill, until absorbed, after) and defines "absorbed". Not thread-safe: one run per call.
 */
public final class Overload {
    /** What to run; {@code rate} (turns/s taken as the saturation, skipping the search) may be null. */
    record Options(double seconds, double load, double windowSeconds, int sessions, String store, Double rate, Path out,
                   boolean smoke, boolean nodeJvm, Path launcher) {}

    static final String USAGE = "usage: threadline bench overload [--store postgresql://…|sqlite:PATH] [--seconds 120] [--load 1.2]"
            + " [--window-seconds 1] [--sessions 255] [--rate TURNS_PER_S] [--out DIR] [--smoke] [--node-jvm] [--launcher PATH]";

    /** The saturation the smoke run takes without a search: a tiny rate, figures meaningless. */
    private static final double SMOKE_RATE = 8;

    private Overload() {}

    /**
     * Runs {@code threadline bench overload} ({@link #USAGE}); returns the exit status (0; 1 when an
     * acknowledged turn is missing or doubled, or the node did not die; 2 on a usage error). Thread-safe
     * (each call runs on its own).
     *
     * @throws Exception when a node cannot start or the store cannot be read
     */
    public static int main(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException bad) {
            err.println("threadline bench overload: " + bad.getMessage());
            return 2;
        }
        if (o == null) {
            out.println(USAGE);
            return 0;
        }
        Path launcher = !o.nodeJvm() && o.launcher() == null ? ServeLoad.findLauncher() : o.launcher();
        Path work = Files.createTempDirectory("threadline-overload");
        try {
            OverloadReport.Results r = run(o, launcher, work, "threadline bench overload " + String.join(" ", args), err);
            Files.createDirectories(o.out());
            Files.writeString(o.out().resolve("results.json"), Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n");
            Files.writeString(o.out().resolve(OverloadChart.FILE), OverloadChart.svg(r));
            OverloadReport.print(r, out);
            out.println("results: " + o.out().resolve("results.json") + " (and " + OverloadChart.FILE + ")");
            return r.loss().none() && r.nodeDied() ? 0 : 1;
        } finally {
            Args.deleteTree(work);
        }
    }

    static Options parse(String[] args) {
        double seconds = 120;
        double load = 1.2;
        double window = 1;
        int sessions = 255;
        String store = null;
        Double rate = null;
        Path out = Path.of("bench-results", "overload");
        boolean smoke = false;
        boolean nodeJvm = false;
        Path launcher = null;
        boolean secondsGiven = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> {
                    seconds = Args.positive(Args.value(args, ++i, "--seconds"), "--seconds");
                    secondsGiven = true;
                }
                case "--load" -> load = Args.positive(Args.value(args, ++i, "--load"), "--load");
                case "--window-seconds" -> window = Args.positive(Args.value(args, ++i, "--window-seconds"), "--window-seconds");
                case "--sessions" -> sessions = Args.count(Args.value(args, ++i, "--sessions"), "--sessions", 1);
                case "--store" -> store = Args.value(args, ++i, "--store");
                case "--rate" -> rate = Args.positive(Args.value(args, ++i, "--rate"), "--rate");
                case "--out" -> out = Path.of(Args.value(args, ++i, "--out"));
                case "--smoke" -> smoke = true;
                case "--node-jvm" -> nodeJvm = true;
                case "--launcher" -> launcher = Path.of(Args.value(args, ++i, "--launcher"));
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (try --help)");
            }
        }
        if (store != null && !store.startsWith("sqlite:") && !store.startsWith("postgres") && !store.startsWith("jdbc:postgresql:")
                && !store.startsWith("redis")) {
            throw new IllegalArgumentException("--store must be a shared store (sqlite:PATH, postgresql://…, redis://…), was '"
                    + store + "': both nodes serve it");
        }
        if (smoke && !secondsGiven) {
            seconds = 4;
        }
        if (window * 4 > seconds) {
            throw new IllegalArgumentException("--window-seconds (" + window + ") must be at most a quarter of --seconds (" + seconds + ")");
        }
        return new Options(seconds, load, window, smoke && sessions == 255 ? 7 : sessions, store, rate, out.toAbsolutePath(), smoke,
                nodeJvm, launcher);
    }

    static OverloadReport.Results run(Options o, Path launcher, Path work, String command, PrintStream log) throws Exception {
        String store = o.store() != null ? o.store() : "sqlite:" + work.resolve("overload.db");
        LoadConfig base = o.smoke() ? LoadConfig.smoke() : LoadConfig.full();
        LoadConfig config = new LoadConfig(base.warmupSeconds(), base.saturationClients(), base.saturationSeconds(), base.searchSeconds(),
                base.searchSteps(), base.fractions(), base.levelSeconds(), o.sessions(), base.maxRate(), 0, 0, 0, 0, 0,
                base.timeoutSeconds());
        LoadRun run = new LoadRun(config, work, true, launcher, log, "overload");
        List<String> ids = LoadRun.ids("overload", o.sessions());
        Duration duration = LoadRun.seconds(o.seconds());
        double saturation;
        double rate;
        long killAt;
        AtomicLong killNanos = new AtomicLong();
        AtomicBoolean died = new AtomicBoolean();
        OverloadReport.Requests requests;
        long retries;
        boolean survivorUp;
        String how;
        OpenLoop.Measurement reference;
        try (ServerUnderTest a = node(o, launcher, store, work, "a", null); ServerUnderTest b = node(o, launcher, store, work, "b", a.key());
             NodePair pair = new NodePair(new HttpTurns(a, run.timeout()), new HttpTurns(b, run.timeout()))) {
            how = "two nodes (" + (o.nodeJvm() ? "java ServeNode" : "threadline serve") + ", pids " + a.pid() + " and " + b.pid()
                    + ") on " + (o.store() != null ? dev.threadline.core.store.StateStores.redact(store) : "a new SQLite file");
            run.phase(how + " at " + a.url() + " and " + b.url());
            run.warmUp(pair);
            if (o.rate() != null || o.smoke()) {
                saturation = o.rate() != null ? o.rate() : SMOKE_RATE; // the smoke run's few turns: no search
            } else {
                List<String> satIds = LoadRun.ids("overload-sat", config.saturationClients());
                pair.create(satIds);
                OpenLoop.Measurement closed = OpenLoop.closed("closed loop", config.saturationClients(),
                        LoadRun.seconds(config.saturationSeconds()), n -> pair.turn(satIds.get((int) (n % satIds.size())), LoadRun.text(n)));
                run.step(String.format(Locale.ROOT, "closed loop, %d clients: %.1f turns/s", config.saturationClients(), closed.offeredPerSec()));
                saturation = new SaturationSearch(run).search(pair, closed.offeredPerSec()).rate();
            }
            rate = run.rate(o.load() * saturation);
            List<String> refIds = LoadRun.ids("overload-ref", o.sessions());
            pair.create(refIds);
            reference = OpenLoop.open("reference", run.rate(saturation), LoadRun.seconds(config.searchSeconds()), run.drain(),
                    n -> pair.turn(refIds.get((int) (n % refIds.size())), LoadRun.text(n)));
            run.step(String.format(Locale.ROOT, "reference at %.1f turns/s: p50 %.1f, p99 %.1f ms, errors %s", reference.offeredPerSec(),
                    reference.p50Millis(), reference.p99Millis(), reference.errors()));
            pair.create(ids);
            long count = Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
            killAt = count / 2;
            requests = new OverloadReport.Requests((int) count);
            run.phase(String.format(Locale.ROOT, "open loop at %.1f turns/s (%.0f %% of %.1f) for %s s, %d turns; node b is killed at turn %d",
                    rate, o.load() * 100, saturation, o.seconds(), count, killAt));
            Thread[] killer = new Thread[1];
            OpenLoop.Measurement m = OpenLoop.open("overload", rate, duration, run.drain(), n -> {
                if (n == killAt) {
                    killer[0] = Thread.ofPlatform().name("overload-kill").start(() -> {
                        killNanos.set(System.nanoTime());
                        try {
                            died.set(b.kill());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                }
                pair.turn(ids.get((int) (n % ids.size())), LoadRun.text(n));
            }, requests);
            if (killer[0] != null) {
                killer[0].join();
            }
            run.step(String.format(Locale.ROOT, "%d ok, errors %s, %d retried on the survivor; node b %s", m.ok(), m.errors(),
                    pair.retries(), died.get() ? "died" : "did NOT die"));
            retries = pair.retries();
            survivorUp = !pair.isDown(0);
        }
        OverloadReport.Loss loss = journal(store, ids, requests);
        run.step("journal: " + loss);
        return OverloadReport.Results.of(command, how, o, saturation, rate, requests, killAt, killNanos.get(), died.get(), survivorUp,
                retries, reference, loss);
    }

    private static ServerUnderTest node(Options o, Path launcher, String store, Path work, String name, String key) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (o.nodeJvm()) {
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), ServeNode.class.getName(), store));
        } else {
            cmd.addAll(List.of(launcher.toString(), "serve", "--store", store, "--port", "0"));
        }
        return ServerUnderTest.child(cmd, work.resolve("node-" + name + ".log"), Duration.ofMinutes(10), key);
    }

    /** Reads every session back from {@code store}: each turn's user message counted by its text. */
    private static OverloadReport.Loss journal(String store, List<String> ids, OverloadReport.Requests requests) {
        Map<String, Integer> seen = new HashMap<>();
        try (Threadline tl = Threadline.builder().store(store).build()) {
            for (String id : ids) {
                for (Message msg : tl.defaultTenant().open(id).state().messages()) {
                    if (msg.role() == Role.USER) {
                        seen.merge(id + "\n" + msg.text(), 1, Integer::sum);
                    }
                }
            }
        }
        long acked = 0;
        long missing = 0;
        long doubled = 0;
        long unacknowledgedHeld = 0;
        for (int n = 0; n < requests.size(); n++) {
            int held = seen.getOrDefault(ids.get(n % ids.size()) + "\n" + LoadRun.text(n), 0);
            if (requests.ok(n)) {
                acked++;
                missing += held == 0 ? 1 : 0;
            } else if (held == 1) {
                unacknowledgedHeld++;
            }
            doubled += held > 1 ? 1 : 0;
        }
        return new OverloadReport.Loss(acked, missing, doubled, unacknowledgedHeld);
    }
}
