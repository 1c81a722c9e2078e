package dev.threadline.bench.server;

import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * {@code threadline bench soak} (issue 39): {@code threadline serve} on the embedded default (a SQLite
 * file) as a child process, {@code --clients} clients in a closed loop over {@code --sessions} sessions
 * (each client its own share of them, round robin, so no two turns meet on one session), the scripted
 * model, plain JSON turns, for {@code --minutes} after {@code --warm-up-seconds} of the same load untimed (the new
 * server's JIT; the turns count in the sessions' length); it stops by itself. Every window it reads the turns
 * answered and their latencies, the server's CPU time ({@code ProcessHandle.info().totalCpuDuration()}
 * of the server's process) and resident memory; at the start and the end the server's live heap after a
 * full GC ({@link Memory}). After the server stopped, every session's journal must hold four messages
 * for each turn acknowledged. Writes {@code results.json} and prints the table ({@link SoakReport}).
 * Not thread-safe: one run per call.
 */
public final class Soak {
    /** What to run; {@code minutes} may be a fraction. */
    record Options(double minutes, int sessions, int clients, double windowSeconds, double warmUpSeconds, Path out, boolean child,
                   Path launcher) {}

    private Soak() {}

    /**
     * Runs {@code threadline bench soak [--minutes 40] [--sessions 200] [--clients 4] [--window-seconds 60]
     * [--warm-up-seconds 30] [--out DIR] [--smoke] [--in-process-server] [--launcher PATH]}; returns the exit status (0; 1 when a journal misses an
     * acknowledged turn; 2 on a usage error). Thread-safe (each call runs on its own).
     *
     * @throws Exception when the server cannot start or be read
     */
    public static int main(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException bad) {
            err.println("threadline bench soak: " + bad.getMessage());
            return 2;
        }
        if (o == null) {
            out.println("usage: threadline bench soak [--minutes 40] [--sessions 200] [--clients 4] [--window-seconds 60]"
                    + " [--warm-up-seconds 30] [--out DIR] [--smoke] [--in-process-server] [--launcher PATH]");
            return 0;
        }
        Path launcher = o.child() && o.launcher() == null ? ServeLoad.findLauncher() : o.launcher();
        Path work = Files.createTempDirectory("threadline-soak");
        try {
            SoakReport.Results r = run(o, launcher, work, "threadline bench soak " + String.join(" ", args), err);
            Files.createDirectories(o.out());
            Files.writeString(o.out().resolve("results.json"), Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(r) + "\n");
            SoakReport.print(r, out);
            out.println("results: " + o.out().resolve("results.json"));
            return r.journalHoldsTurns() ? 0 : 1;
        } finally {
            Args.deleteTree(work);
        }
    }

    static Options parse(String[] args) {
        Double minutes = null;
        Integer sessions = null;
        Integer clients = null;
        Double window = null;
        Double warmUp = null;
        Path out = Path.of("bench-results", "soak");
        boolean smoke = false;
        boolean child = true;
        Path launcher = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--minutes" -> minutes = Args.positive(Args.value(args, ++i, "--minutes"), "--minutes");
                case "--sessions" -> sessions = Args.count(Args.value(args, ++i, "--sessions"), "--sessions", 1);
                case "--clients" -> clients = Args.count(Args.value(args, ++i, "--clients"), "--clients", 1);
                case "--window-seconds" -> window = Args.positive(Args.value(args, ++i, "--window-seconds"), "--window-seconds");
                case "--warm-up-seconds" -> warmUp = warmUp(Args.value(args, ++i, "--warm-up-seconds"));
                case "--out" -> out = Path.of(Args.value(args, ++i, "--out"));
                case "--smoke" -> smoke = true;
                case "--in-process-server" -> child = false;
                case "--launcher" -> launcher = Path.of(Args.value(args, ++i, "--launcher"));
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (try --help)");
            }
        }
        Options o = new Options(minutes != null ? minutes : smoke ? 1.0 / 3 : 40, sessions != null ? sessions : smoke ? 10 : 200,
                clients != null ? clients : smoke ? 2 : 4, window != null ? window : smoke ? 5 : 60,
                warmUp != null ? warmUp : smoke ? 3 : 30, out.toAbsolutePath(), child, launcher);
        if (o.clients() > o.sessions()) {
            throw new IllegalArgumentException("--clients (" + o.clients() + ") must not exceed --sessions (" + o.sessions()
                    + "): each client drives its own sessions");
        }
        if (o.windowSeconds() > o.minutes() * 60) {
            throw new IllegalArgumentException("--window-seconds (" + o.windowSeconds() + ") is longer than the run ("
                    + o.minutes() * 60 + " s)");
        }
        return o;
    }

    static SoakReport.Results run(Options o, Path launcher, Path work, String command, PrintStream log) throws Exception {
        Path db = work.resolve("serve-soak.db");
        List<String> ids = LoadRun.ids("soak", o.sessions());
        AtomicLongArray acked = new AtomicLongArray(o.sessions());
        List<SoakReport.Window> windows = new ArrayList<>();
        List<Histogram> hists = new ArrayList<>();
        long heapStart;
        long heapEnd;
        long rssEnd;
        String how;
        long errorsTotal;
        try (ServerUnderTest server = o.child() ? ServerUnderTest.child(launcher, db, work.resolve("serve-soak.log"),
                Duration.ofMinutes(10), 200) : ServerUnderTest.inProcess(db, 200);
             HttpTurns http = new HttpTurns(server, Duration.ofSeconds(60))) {
            how = server.how();
            log.println("soak: " + how + " at " + server.url() + "; " + o.sessions() + " sessions, " + o.clients() + " clients, "
                    + o.minutes() + " min");
            http.create(ids);
            heapStart = server.memory().heapAfterGcBytes();
            Recorder recorder = new Recorder(3);
            AtomicLong errors = new AtomicLong();
            AtomicLong next = new AtomicLong();
            long start = System.nanoTime() + Math.round(o.warmUpSeconds() * 1e9); // the windows start after the warm-up
            long end = start + Math.round(o.minutes() * 60e9);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < o.clients(); c++) {
                int first = c;
                clients.add(Thread.ofPlatform().name("soak-client-" + c).start(() -> {
                    for (int k = first; System.nanoTime() < end; k = k + o.clients() < o.sessions() ? k + o.clients() : first) {
                        long t0 = System.nanoTime();
                        try {
                            http.turn(ids.get(k), LoadRun.text(next.getAndIncrement()));
                            recorder.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
                            acked.incrementAndGet(k);
                        } catch (Exception e) {
                            errors.incrementAndGet();
                        }
                    }
                }));
            }
            long windowNanos = Math.round(o.windowSeconds() * 1e9);
            while (System.nanoTime() < start) { // the warm-up's length, not synchronisation
                LockSupport.parkNanos(start - System.nanoTime());
            }
            recorder.getIntervalHistogram(); // the warm-up's turns: not reported
            long cpu0 = cpuNanos(server.pid());
            long from = start;
            long errorsBefore = errors.get();
            while (from < end) {
                long to = Math.min(end, from + windowNanos);
                while (System.nanoTime() < to) { // the window's length, not synchronisation: the clients never wait for it
                    LockSupport.parkNanos(to - System.nanoTime());
                }
                if (to == end) {
                    for (Thread t : clients) {
                        t.join();
                    }
                }
                Histogram h = recorder.getIntervalHistogram();
                long cpu1 = cpuNanos(server.pid());
                long err = errors.get();
                double secs = (Math.max(System.nanoTime(), to) - from) / 1e9;
                long total = sum(acked);
                double perSession = total * TurnCost.MESSAGES_PER_TURN / (double) o.sessions();
                windows.add(SoakReport.Window.of((from - start) / 60e9, (to - start) / 60e9, perSession, h, secs, (cpu1 - cpu0) / 1e6,
                        server.memory().rssBytes(), err - errorsBefore));
                log.println("soak: " + windows.getLast().line());
                hists.add(h);
                cpu0 = cpu1;
                errorsBefore = err;
                from = to;
            }
            errorsTotal = errors.get(); // the warm-up's too
            heapEnd = server.memory().heapAfterGcBytes();
            rssEnd = server.memory().rssBytes();
        }
        long storeBytes = fileSize(db) + fileSize(Path.of(db + "-wal"));
        boolean holds = journal(db, ids, acked, errorsTotal == 0);
        return SoakReport.Results.of(command, how, o, windows, hists, heapStart, heapEnd, rssEnd, storeBytes, sum(acked), errorsTotal,
                holds);
    }

    /** Whether every session's journal holds four messages per acknowledged turn (at least, when some turn failed unanswered). */
    private static boolean journal(Path db, List<String> ids, AtomicLongArray acked, boolean exact) {
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            for (int k = 0; k < ids.size(); k++) {
                long expected = acked.get(k) * TurnCost.MESSAGES_PER_TURN;
                long held = tl.defaultTenant().open(ids.get(k)).state().messages().size();
                if (exact ? held != expected : held < expected) {
                    return false;
                }
            }
            return true;
        }
    }

    private static double warmUp(String v) {
        if (v.equals("0")) {
            return 0;
        }
        return Args.positive(v, "--warm-up-seconds");
    }

    private static long sum(AtomicLongArray a) {
        long s = 0;
        for (int i = 0; i < a.length(); i++) {
            s += a.get(i);
        }
        return s;
    }

    /** The CPU time process {@code pid} has used so far, ns (user and system, all its threads). */
    static long cpuNanos(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos)
                .orElseThrow(() -> new IllegalStateException("the CPU time of process " + pid + " cannot be read"));
    }

    private static long fileSize(Path p) throws java.io.IOException {
        return Files.exists(p) ? Files.size(p) : 0;
    }
}
