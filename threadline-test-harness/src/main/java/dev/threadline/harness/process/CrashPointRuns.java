package dev.threadline.harness.process;

import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.fault.CrashPoint;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.history.HistoryLines;
import dev.threadline.harness.history.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 25 item 5 on one store: a {@link ClientChild} B runs turns throughout, while incarnations of a
 * second child A are started one after another, each armed with one {@link CrashPoint} (system property
 * {@value CrashPoint#PROPERTY}), and each must halt there (exit code {@value CrashPoint#EXIT_CODE} and its
 * stderr line). A runs B's sessions and one of its own ({@link #OWN}); the calls a halted incarnation had in
 * flight become unknown; B or the next incarnation takes its sessions over (its own one always the next
 * incarnation, so a take-over point is reached). Run {@code runs} times per point, the r-th run halting at the point's r-th reach, so the
 * halts fall at different places of the workload. Then an unarmed A runs and both quit, and
 * {@link HistoryChecker} judges the journals: every acknowledged turn once, seqs gapless, turns never
 * interleaved, transcripts valid (so no halt left a half-written step or a turn no owner closes). Not
 * thread-safe (the test thread drives it).
 */
public final class CrashPointRuns {
    /** How long one armed incarnation may run before it must have reached its point. */
    private static final Duration REACH = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Fleet fleet;
    private final Map<String, Object> args;
    /** A's arguments: B's sessions and one of A's own, which each incarnation takes over from the halted one before it. */
    private final Map<String, Object> argsA;
    private final Map<CrashPoint, List<Long>> haltedAfterMillis = new LinkedHashMap<>();
    private int incarnation = 1;

    /**
     * Runs on {@code fleet}'s store with the child arguments {@code args} (sessions, clients, skill, leases,
     * snapshotEvery: see {@link ChildArgs}).
     */
    public CrashPointRuns(Fleet fleet, Map<String, ?> args) {
        this.fleet = fleet;
        this.args = new LinkedHashMap<>(args);
        this.argsA = new LinkedHashMap<>(args);
        argsA.put("sessions", args.get("sessions") + "," + OWN);
    }

    /** The session only the A incarnations use: B would otherwise take every halted A's leases over first. */
    public static final String OWN = "a-own";

    /**
     * Runs every point of {@code points} {@code runs} times as the class comment says, then judges the
     * journals of {@code tenant}'s {@code sessions}.
     *
     * @throws AssertionError when an armed child does not halt at its point in time, exits otherwise, or
     *                        the checker finds a violation
     * @throws InterruptedException when the test's thread is interrupted while it waits for steps
     */
    public void run(List<CrashPoint> points, int runs, String tenant, List<String> sessions) throws InterruptedException {
        ChildProcess b = fleet.start("B#1", ClientChild.class, args);
        fleet.awaitSteps(10, WAIT);
        for (CrashPoint p : points) {
            for (int r = 1; r <= runs; r++) {
                haltAt(p, r);
            }
        }
        int bFrom = b.lineCount();
        ChildProcess a = fleet.start("A#" + incarnation, ClientChild.class, argsA);
        // every session has a call acknowledged after the last halt: its owner then closed any turn a halt left open
        awaitOk(List.of(a), Map.of(a, 0), OWN);
        for (String s : sessions) {
            awaitOk(List.of(a, b), Map.of(a, 0, b, bFrom), s);
        }
        fleet.quit(a);
        fleet.quit(b);
        if (fleet.history.inFlight() != 0) {
            throw new AssertionError(fleet.history.inFlight() + " calls still in flight after every child quit");
        }
        List<String> all = new ArrayList<>(sessions);
        all.add(OWN);
        HistoryChecker.of(fleet.history.operations()).verify(fleet.journals(tenant, all));
    }

    /**
     * One armed incarnation: it must halt at {@code p}'s {@code n}-th reach. For a take-over, at the first,
     * of {@link #OWN}: the halted incarnation before may have been between two commands of it, with no
     * lease, so this test first leases it to an owner of its own for a moment ({@link #leaseOwnAway}).
     */
    private void haltAt(CrashPoint p, int run) {
        int n = p == CrashPoint.LEASE_AFTER_TAKE_OVER ? 1 : run;
        if (p == CrashPoint.LEASE_AFTER_TAKE_OVER) {
            leaseOwnAway();
        }
        String name = "A#" + incarnation++;
        long t0 = System.nanoTime();
        ChildProcess a = fleet.launch(name, ClientChild.class, argsA, List.of("-D" + CrashPoint.PROPERTY + "=" + p.wireName() + "@" + n));
        int code = a.awaitExit(REACH);
        if (code != CrashPoint.EXIT_CODE || !a.stderrTail().contains("crash point " + p.wireName() + " reached")) {
            throw new AssertionError(a.describe("armed with " + p.wireName() + "@" + n + ", exited with " + code
                    + " instead of halting there (exit code " + CrashPoint.EXIT_CODE + ")"));
        }
        fleet.history.abandon(name); // its calls in flight: unknown
        haltedAfterMillis.computeIfAbsent(p, k -> new ArrayList<>()).add((System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Leases {@link #OWN} to an owner that runs nothing, for 2 s (taking it from the dead incarnation
     * that may hold it), so the next incarnation must take it over once that lease expires.
     */
    private void leaseOwnAway() {
        SessionKey key = new SessionKey(String.valueOf(args.getOrDefault("tenant", "acme")), OWN);
        String holder = "crash-point-test-holder";
        try {
            if (fleet.store().acquire(key, holder, HOLDER_TTL, null) instanceof LeaseResult.Held held
                    && !(fleet.store().acquire(key, holder, HOLDER_TTL, held.current().owner()) instanceof LeaseResult.Acquired)) {
                throw new AssertionError("could not lease " + OWN + " away from the halted incarnation " + held.current().owner());
            }
        } catch (SessionNotFoundException e) {
            // no incarnation ran yet: the next one creates it, and has nothing to take over
        }
    }

    private static final Duration HOLDER_TTL = Duration.ofSeconds(2);

    /** Polls (bounded) until one of {@code children} printed an ok call of {@code session} at or after its index in {@code from}. */
    private static void awaitOk(List<ChildProcess> children, Map<ChildProcess, Integer> from, String session) {
        String ok = HistoryLines.END + Outcome.OK.wireName() + " " + session + " ";
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            for (ChildProcess c : children) {
                List<Line> lines = c.lines();
                for (int i = from.get(c); i < lines.size(); i++) {
                    if (lines.get(i).text().startsWith(ok)) {
                        return;
                    }
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(children.get(0).describe("no call of " + session + " was acknowledged within " + WAIT
                        + " after the last halt"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }


    /** The sessions both processes run turns on. */
    public static final List<String> SESSIONS = List.of("c0", "c1", "c2");

    /**
     * The points a process running turns reaches: steps, snapshots, lease renewals and take-overs, a tool
     * call run but not recorded, and the sealing of transcript segments on a store that seals them
     * ({@code seals}: SQLite). Compaction, MCP calls, sweeps and erasure need other work (the CLI's tests).
     */
    public static List<CrashPoint> turnPoints(boolean seals) {
        List<CrashPoint> out = new ArrayList<>(List.of(CrashPoint.STEP_BEFORE_APPEND, CrashPoint.STEP_AFTER_APPEND,
                CrashPoint.STEP_BEFORE_REPLY, CrashPoint.SNAPSHOT_WRITE));
        if (seals) {
            out.add(CrashPoint.SEGMENT_WRITE);
        }
        out.addAll(List.of(CrashPoint.LEASE_AFTER_RENEW, CrashPoint.LEASE_AFTER_TAKE_OVER, CrashPoint.TOOL_AFTER_CALL));
        return List.copyOf(out);
    }

    /**
     * Runs the turn points on {@code fleet}'s store (two clients per session on {@link #SESSIONS}, slow
     * tool calls, 1 s leases, a snapshot every 7 events): {@code defaults} in the default suite, or what
     * {@link #selected} says; prints the report.
     *
     * @throws InterruptedException when the test's thread is interrupted while it waits for steps
     */
    public static void runTurnPoints(Fleet fleet, boolean seals, List<CrashPoint> defaults) throws InterruptedException {
        CrashPointRuns runs = new CrashPointRuns(fleet, Map.of("sessions", String.join(",", SESSIONS), "clients", 2,
                "skill", "slow", "ttlMillis", 1000, "waitMillis", 3000, "snapshotEvery", 7));
        runs.run(selected(turnPoints(seals), defaults), runs(), "acme", SESSIONS);
        System.out.println(runs.report());
    }

    /**
     * The points a test runs: those named by the system property {@code threadline.crashPoints} (a comma
     * list of {@link CrashPoint#wireName()}s, or {@code all} for every one of {@code reachable}), else
     * {@code defaults}, the default suite's quicker selection.
     *
     * @throws IllegalArgumentException naming a point that is not one of {@code reachable}
     */
    public static List<CrashPoint> selected(List<CrashPoint> reachable, List<CrashPoint> defaults) {
        String spec = System.getProperty("threadline.crashPoints");
        if (spec == null || spec.isBlank()) {
            return defaults;
        }
        if (spec.strip().equals("all")) {
            return reachable;
        }
        List<CrashPoint> out = new ArrayList<>();
        for (String name : spec.split(",")) {
            CrashPoint p = CrashPoint.ofWireName(name.strip());
            if (!reachable.contains(p)) {
                throw new IllegalArgumentException("-Dthreadline.crashPoints: " + p.wireName() + " is not reached by this"
                        + " test's workload; it reaches " + reachable.stream().map(CrashPoint::wireName).toList());
            }
            out.add(p);
        }
        return out;
    }

    /** How many runs per point: the system property {@code threadline.crashRuns}, else 1 (the acceptance runs 3). */
    public static int runs() {
        return Integer.getInteger("threadline.crashRuns", 1);
    }

    /** One line: the points run, how many halts, and the time from a start to its halt per point. */
    public String report() {
        StringBuilder b = new StringBuilder("crash points: ");
        haltedAfterMillis.forEach((p, ms) -> b.append(p.wireName()).append(" x").append(ms.size()).append(" (")
                .append(ms.stream().mapToLong(Long::longValue).max().orElse(0)).append(" ms max) "));
        return b.append("; operations ").append(fleet.history.operations().size()).toString().strip();
    }
}
