package dev.threadline.bench.server;

import dev.threadline.bench.kit.JitWarmUp;
import dev.threadline.bench.kit.StoreUrl;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code threadline bench turn-cost} (issue 39): the runtime's own time per turn at each session size,
 * beside the store's step at the same size, in one run. For each size, sessions prefilled to that many
 * messages ({@link TurnCostSessions}); then, after untimed turns until the JIT is quiet ({@link JitWarmUp})
 * and one untimed turn on each session, real turns of the scripted model (a calculator tool call, four
 * messages) timed one after another by one client: in this JVM through {@code Session.submit}
 * ({@link InProcessTurns}), or with {@code --http} over HTTP against a {@code threadline serve} started in
 * this JVM ({@link HttpTurns}). A session is measured over at most a tenth of its length (size / 40
 * turns), so small sizes use several sessions. At the end every session's journal must hold its prefill
 * and every turn sent. The table is {@link TurnCostReport}'s. Not thread-safe; one run at a time.
 */
public final class TurnCost {
    static final int MESSAGES_PER_TURN = 4;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** What to run. */
    record Options(List<Integer> sizes, int turns, StoreUrl store, boolean http, boolean smoke) {}

    /** One size's plan: its sessions, of {@code messages} each, and how many timed turns each gets. */
    record Plan(int messages, List<String> ids, int[] turnsOf) {}

    private TurnCost() {}

    /**
     * Runs {@code threadline bench turn-cost [--sizes 10,1000,10000,50000] [--turns N] [--store sqlite:PATH|memory:]
     * [--http] [--smoke]}; returns the exit status (0; 1 when a session's journal misses turns; 2 on a usage error).
     * Thread-safe (each call runs on its own).
     *
     * @throws Exception when the server cannot start or a turn fails
     */
    public static int main(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException bad) {
            err.println("threadline bench turn-cost: " + bad.getMessage());
            return 2;
        }
        if (o == null) {
            out.println("usage: threadline bench turn-cost [--sizes 10,1000,10000,50000] [--turns N (200)]"
                    + " [--store sqlite:PATH | memory:] [--http] [--smoke]");
            return 0;
        }
        CPU.setThreadCpuTimeEnabled(true);
        Path work = Files.createTempDirectory("threadline-turn-cost");
        try {
            Path db = o.store() != null && o.store().isSqlite() ? o.store().file() : work.resolve("turn-cost.db");
            List<TurnCostReport.Row> rows = o.http() ? overHttp(o, db, err) : inProcess(o, db, err);
            TurnCostReport.print(o, rows, out);
            return rows.stream().allMatch(TurnCostReport.Row::journalHoldsTurns) ? 0 : 1;
        } finally {
            Args.deleteTree(work);
        }
    }

    static Options parse(String[] args) {
        List<Integer> sizes = List.of(10, 1_000, 10_000, 50_000);
        int turns = 200;
        StoreUrl store = null;
        boolean http = false;
        boolean smoke = false;
        boolean sizesGiven = false;
        boolean turnsGiven = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> {
                    sizes = new ArrayList<>();
                    for (String s : Args.value(args, ++i, "--sizes").split(",")) {
                        sizes.add(Args.count(s.trim(), "each of --sizes", 1));
                    }
                    sizesGiven = true;
                }
                case "--turns" -> {
                    turns = Args.count(Args.value(args, ++i, "--turns"), "--turns", 1);
                    turnsGiven = true;
                }
                case "--store" -> {
                    try {
                        store = StoreUrl.parse(Args.value(args, ++i, "--store"));
                    } catch (RuntimeException e) {
                        throw new IllegalArgumentException(e.getMessage());
                    }
                }
                case "--http" -> http = true;
                case "--smoke" -> smoke = true;
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "' (try --help)");
            }
        }
        if (http && store != null && !store.isSqlite()) {
            throw new IllegalArgumentException("--http serves a SQLite file (threadline serve --db); give --store sqlite:PATH or none");
        }
        if (smoke) {
            sizes = sizesGiven ? sizes : List.of(10, 200);
            turns = turnsGiven ? turns : 12;
        }
        return new Options(List.copyOf(sizes), turns, store, http, smoke);
    }

    /** Sessions of every size, prefilled; the store's step timed at each size. */
    private static Map<Integer, Plan> prepare(Options o, Threadline tl, StateStore store, Map<Integer, long[]> storeSteps,
                                              PrintStream log) throws Exception {
        Map<Integer, Plan> plans = new LinkedHashMap<>();
        for (int size : o.sizes()) {
            int messages = TurnCostSessions.wholeTurns(size);
            int perSession = Math.max(1, Math.min(o.turns(), messages / (10 * MESSAGES_PER_TURN)));
            int sessions = (o.turns() + perSession - 1) / perSession;
            List<String> ids = new ArrayList<>();
            int[] turnsOf = new int[sessions];
            long t0 = System.nanoTime();
            for (int k = 0; k < sessions; k++) {
                ids.add("turn-cost-" + messages + "-" + k);
                TurnCostSessions.prefill(tl, ids.get(k), messages);
            }
            for (int i = 0; i < o.turns(); i++) {
                turnsOf[i % sessions]++;
            }
            log.printf("turn-cost: %,d session(s) of %,d messages prefilled in %.1f s%n", sessions, messages,
                    (System.nanoTime() - t0) / 1e9);
            plans.put(size, new Plan(messages, ids, turnsOf));
        }
        JitWarmUp.Outcome w = TurnCostSessions.warmUp(tl, store, o.smoke() ? 20 : 2_000, o.smoke() ? 20 : 20_000);
        log.println("turn-cost: the store's appends warmed up: " + w.describe());
        for (int size : o.sizes()) {
            storeSteps.put(size, TurnCostSessions.storeSteps(tl, store, plans.get(size).messages(), Math.max(50, o.turns())));
        }
        return plans;
    }

    private static List<TurnCostReport.Row> inProcess(Options o, Path db, PrintStream log) throws Exception {
        AtomicLong inStore = new AtomicLong();
        StateStore inner = o.store() != null && !o.store().isSqlite() ? new InMemoryStateStore() : SqliteStateStore.open(db);
        Map<Integer, long[]> storeSteps = new LinkedHashMap<>();
        try (InProcessTurns turns = new InProcessTurns(TurnCostSessions.timed(inner, inStore))) {
            Map<Integer, Plan> plans = prepare(o, turns.runtime(), inner, storeSteps, log);
            List<TurnCostReport.Row> rows = measure(o, turns, plans, storeSteps, inStore, log);
            List<TurnCostReport.Row> checked = new ArrayList<>();
            for (TurnCostReport.Row r : rows) {
                checked.add(check(turns.runtime(), r, plans.get(r.size())));
            }
            return checked;
        }
    }

    private static List<TurnCostReport.Row> overHttp(Options o, Path db, PrintStream log) throws Exception {
        Map<Integer, long[]> storeSteps = new LinkedHashMap<>();
        Map<Integer, Plan> plans;
        StateStore store = SqliteStateStore.open(db);
        try (Threadline tl = Threadline.builder().store(store).leaseLinger(Duration.ZERO).build()) {
            plans = prepare(o, tl, store, storeSteps, log);
        }
        List<TurnCostReport.Row> rows;
        try (ServerUnderTest server = ServerUnderTest.inProcess(db, 200);
             HttpTurns turns = new HttpTurns(server, Duration.ofSeconds(120))) {
            log.println("turn-cost: HTTP at " + server.url() + " (" + server.how() + ")");
            rows = measure(o, turns, plans, storeSteps, null, log);
        }
        List<TurnCostReport.Row> checked = new ArrayList<>();
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            for (TurnCostReport.Row r : rows) {
                checked.add(check(tl, r, plans.get(r.size())));
            }
        }
        return checked;
    }

    /** Warms the turn up, then times each size's turns; {@code inStore} (may be null) sums the store's appends. */
    private static List<TurnCostReport.Row> measure(Options o, Turns turns, Map<Integer, Plan> plans, Map<Integer, long[]> storeSteps,
                                                    AtomicLong inStore, PrintStream log) throws Exception {
        List<String> warm = LoadRun.ids("turn-cost-warm", o.smoke() ? 2 : 40);
        turns.create(warm);
        long[] n = {0};
        JitWarmUp.Outcome w = JitWarmUp.run(o.smoke() ? 12 : 1_000, o.smoke() ? 12 : 5_000,
                i -> turns.turn(warm.get(i % warm.size()), LoadRun.text(n[0]++)));
        log.println("turn-cost: " + turns.name() + " turns warmed up: " + w.describe());
        List<TurnCostReport.Row> rows = new ArrayList<>();
        for (int size : o.sizes()) {
            Plan p = plans.get(size);
            for (String id : p.ids()) { // the first turn of each session untimed: it may load the session
                turns.turn(id, LoadRun.text(n[0]++));
            }
            int count = o.turns();
            long[] wall = new long[count];
            long[] threadCpu = new long[count];
            long[] store = new long[count];
            long process0 = processCpuNanos();
            for (int i = 0; i < count; i++) {
                String id = p.ids().get(i % p.ids().size());
                String text = LoadRun.text(n[0]++);
                long s0 = inStore == null ? 0 : inStore.get();
                long c0 = CPU.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                turns.turn(id, text);
                wall[i] = (System.nanoTime() - t0) / 1000;
                threadCpu[i] = (CPU.getCurrentThreadCpuTime() - c0) / 1000;
                store[i] = inStore == null ? -1 : (inStore.get() - s0) / 1000;
            }
            double processCpuPerTurn = (processCpuNanos() - process0) / 1000.0 / count;
            TurnCostReport.Row row = TurnCostReport.Row.of(size, p.messages(), p.ids().size(), wall, threadCpu, processCpuPerTurn,
                    inStore == null ? null : store, storeSteps.get(size));
            log.printf("turn-cost: %s %,d messages: p50 %.0f µs%n", turns.name(), p.messages(), row.p50());
            rows.add(row);
        }
        return rows;
    }

    /**
     * {@code r} with whether each session of {@code p} holds its prefill, its untimed first turn and its timed
     * turns, and the messages in the model's view of its first session at the end (a summary counts as one).
     */
    private static TurnCostReport.Row check(Threadline tl, TurnCostReport.Row r, Plan p) {
        boolean holds = true;
        for (int k = 0; k < p.ids().size(); k++) {
            int expected = p.messages() + MESSAGES_PER_TURN * (1 + p.turnsOf()[k]);
            int held = tl.defaultTenant().open(p.ids().get(k)).state().messages().size();
            holds &= held == expected;
        }
        return r.checked(holds, tl.defaultTenant().open(p.ids().getFirst()).context().messages());
    }

    /** This process's CPU time so far, ns (all its threads). */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
