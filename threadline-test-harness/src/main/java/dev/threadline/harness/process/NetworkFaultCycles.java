package dev.threadline.harness.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.history.HistoryLines;
import dev.threadline.harness.history.Outcome;
import dev.threadline.harness.servers.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The network-fault cycles of issue 25 item 4 on two {@link ClientChild} processes of one {@link Fleet}:
 * A reaches the store through a {@link FaultProxy}, B directly. A cut ({@link #cut}) waits until A starts
 * tool calls on a session (it holds that session's lease, mid-turn), breaks A's path in the given way,
 * waits until this JVM sees the lease held by B (asserted within the take-over bound, measured from the
 * cut) and B's first step on that session, then until one of A's calls ended without an answer from the
 * store, and heals the path: A must acknowledge a step again, without a restart. A delay ({@link #delay})
 * slows A's path for a while and measures A's calls meanwhile. Not thread-safe (the test thread drives it).
 */
public final class NetworkFaultCycles {
    /** How a cut breaks A's path. */
    public enum Cut {
        /** {@link FaultProxy#blackhole()}: A's calls hang until its own timeouts. */
        BLACKHOLE,
        /** {@link FaultProxy#reset()}: A's connections reset, new ones too. */
        RESET,
        /** {@link FaultProxy#drop()}: A's connections closed, new ones too. */
        DROP
    }

    private static final Duration STEP_WAIT = Duration.ofSeconds(30);
    private static final String TENANT = "acme";
    /** The longest a delay is held. */
    public static final Duration DELAY_WINDOW = Duration.ofSeconds(15);

    private final Fleet fleet;
    private final FaultProxy proxy;
    private final ChildProcess a;
    private final ChildProcess b;
    private final Duration takeOverBound;
    private final String own;
    private final Map<Cut, List<Long>> takeOvers = new HashMap<>();
    private final Map<Cut, List<Long>> firstSteps = new HashMap<>();
    private final Map<Cut, List<Long>> recoveries = new HashMap<>();
    private final List<String> delays = new ArrayList<>();
    /** When each cut ({@code [nanos, Cut ordinal]}) and heal ({@code [nanos, -1]}) happened. */
    private final List<long[]> events = new ArrayList<>();

    /**
     * Cycles on a fleet whose child {@code a} opens the store through {@code proxy} and {@code b} directly.
     *
     * @param takeOverBound how soon after a cut B must hold the lease of A's session
     * @param own           a session only A writes (its steps are timed under a delay; cuts pick another), or null
     */
    public NetworkFaultCycles(Fleet fleet, FaultProxy proxy, ChildProcess a, ChildProcess b, Duration takeOverBound,
                              String own) {
        this.own = own;
        this.fleet = fleet;
        this.proxy = proxy;
        this.a = a;
        this.b = b;
        this.takeOverBound = takeOverBound;
        fleet.store().lease(new SessionKey(TENANT, "s0")); // connect now, not inside the first measurement
    }

    /**
     * One cut of A's path and its heal (see the class comment).
     *
     * @throws InterruptedException when the test's thread is interrupted
     */
    public void cut(Cut how) throws InterruptedException {
        Fleet.Ack midTurn = nextAck(a, true, System.nanoTime(), STEP_WAIT); // on a session B writes too
        long t0 = System.nanoTime();
        int aLines = a.lineCount();
        events.add(new long[] {t0, how.ordinal()});
        switch (how) {
            case BLACKHOLE -> proxy.blackhole();
            case RESET -> proxy.reset();
            case DROP -> proxy.drop();
        }
        SessionKey key = new SessionKey(TENANT, midTurn.session());
        long took = awaitTakeOver(key, t0) - t0;
        assertThat(Duration.ofNanos(took)).as("%s: the lease of %s moved from the cut-off %s", how, key.id(), a.name())
                .isLessThan(takeOverBound);
        long firstStep = awaitAck(b, midTurn.session(), t0).receivedNanos() - t0;
        assertThat(Duration.ofNanos(firstStep)).as("%s: %s's first step on %s after the cut of %s", how, b.name(),
                key.id(), a.name()).isLessThan(takeOverBound.plus(LeaseCycles.FIRST_STEP_ALLOWANCE));
        // the cut-off process learns it: one of its calls ends without the store's answer (unknown, or fenced)
        a.awaitLine(aLines, "a call of the cut-off process ending unknown",
                l -> l.startsWith(HistoryLines.END + Outcome.UNKNOWN.wireName() + " "),
                STEP_WAIT.multipliedBy(2)); // a turn may chain several of its store's timeouts (RedisNetworkFaultTest)
        long healed = System.nanoTime();
        proxy.pass();
        events.add(new long[] {healed, -1});
        long back = nextAck(a, false, healed, STEP_WAIT.multipliedBy(2)).receivedNanos() - healed;
        takeOvers.computeIfAbsent(how, k -> new ArrayList<>()).add(took);
        firstSteps.computeIfAbsent(how, k -> new ArrayList<>()).add(firstStep);
        recoveries.computeIfAbsent(how, k -> new ArrayList<>()).add(back);
    }

    /**
     * Slows A's path by {@code d} per chunk, both ways, until A has committed three steps on the session only it
     * writes (at most {@link #DELAY_WINDOW}), then heals it. Records the time between those steps (the first from
     * the start of the delay: p50, max), the latencies of A's calls that started and ended meanwhile and were
     * answered ok, and how many others ended otherwise (lease held by B, fenced, failed).
     */
    public void delay(Duration d) {
        int from = a.lineCount();
        long t0 = System.nanoTime();
        proxy.delay(d);
        long until = t0 + DELAY_WINDOW.toNanos();
        while (System.nanoTime() < until && ownSteps(from).size() < 3) {
            LockSupport.parkNanos(20_000_000L); // a bounded poll of A's output
        }
        proxy.pass();
        List<Long> steps = new ArrayList<>();
        long last = t0;
        for (long at : ownSteps(from)) {
            steps.add(at - last);
            last = at;
        }
        List<Long> ok = callsSince(from, x -> true, true);
        int others = callsSince(from, x -> true, false).size() - ok.size();
        delays.add(String.format("delay %d ms (held %d ms): A's steps on its own session %d (apart p50 %d ms, max %d ms);"
                        + " A's calls started and answered ok under it %d (p50 %d ms, max %d ms), %d others ended otherwise",
                d.toMillis(), (System.nanoTime() - t0) / 1_000_000, steps.size(), p50(steps), max(steps), ok.size(), p50(ok),
                max(ok), others));
    }

    /** When this JVM read each of A's steps on its own session, from line {@code from} on. */
    private List<Long> ownSteps(int from) {
        List<Line> lines = a.lines();
        return lines.subList(Math.min(from, lines.size()), lines.size()).stream()
                .filter(l -> l.text().startsWith("ACK " + own + " ")).map(Line::receivedNanos).toList();
    }

    /**
     * The durations of A's calls whose START is at line {@code from} or later and that have ended, on
     * a session {@code sessions} accepts, answered ok only if {@code ok}.
     */
    private List<Long> callsSince(int from, java.util.function.Predicate<String> sessions, boolean ok) {
        Map<String, Long> started = new HashMap<>();
        List<Long> out = new ArrayList<>();
        List<Line> lines = a.lines();
        String okEnd = HistoryLines.END + Outcome.OK.wireName() + " ";
        for (Line l : lines.subList(Math.min(from, lines.size()), lines.size())) {
            String[] p = l.text().split(" ");
            if (l.text().startsWith(HistoryLines.START) && sessions.test(p[1])) {
                started.put(p[2], l.receivedNanos());
            } else if (l.text().startsWith(HistoryLines.END)) {
                Long s = started.remove(p[3]);
                if (s != null && (!ok || l.text().startsWith(okEnd))) {
                    out.add(l.receivedNanos() - s);
                }
            }
        }
        return out;
    }

    /** Polls the store (bounded) until the session's lease belongs to another process than A; when this JVM saw it so. */
    private long awaitTakeOver(SessionKey key, long since) {
        return fleet.awaitLeaseLeaves(key, a, since + takeOverBound.plus(STEP_WAIT).toNanos(), seen -> "its lease of "
                + key.id() + " was not taken over within " + takeOverBound.plus(STEP_WAIT) + " of the cut; the lease is now " + seen);
    }

    /**
     * The next step of {@code child} heard after {@code since}; if {@code started}, one that started tool calls on a
     * session B writes too.
     */
    private Fleet.Ack nextAck(ChildProcess child, boolean started, long since, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            Fleet.Ack x = fleet.nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (x != null && x.child().equals(child.name()) && x.receivedNanos() >= since
                    && (!started || x.started() && !x.session().equals(own))) {
                return x;
            }
        }
        throw new AssertionError(child.describe("no step " + (started ? "starting tool calls " : "") + "within " + wait));
    }

    /** The first step {@code child} committed on {@code session} that this JVM read after {@code since}. */
    private Fleet.Ack awaitAck(ChildProcess child, String session, long since) throws InterruptedException {
        Duration wait = takeOverBound.plus(STEP_WAIT);
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            Fleet.Ack x = fleet.nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (x != null && x.child().equals(child.name()) && x.session().equals(session) && x.receivedNanos() >= since) {
                return x;
            }
        }
        throw new AssertionError(child.describe("never appended to " + session + " within " + wait + " of the cut"));
    }

    /**
     * Waits until A commits a step on {@code session} (bounded): it goes on after what was done to its path.
     *
     * @throws InterruptedException when the test's thread is interrupted
     */
    public void awaitStepOfA(String session) throws InterruptedException {
        awaitAck(a, session, System.nanoTime());
    }

    /**
     * The longest of A's calls that ended unknown (the store did not answer), over the whole run so far: what a
     * cut-off process's call can hang for (its store's timeouts).
     */
    public Duration slowestUnanswered() {
        return Duration.ofNanos(slowest()[0]);
    }

    /** The longest of A's unanswered calls so far, with its lines (ms from its start) and the cuts and heals near it. */
    public String slowestUnansweredCall() {
        long[] x = slowest();
        List<Line> lines = a.lines();
        Line start = lines.get((int) x[1]);
        String cid = start.text().split(" ")[2];
        StringBuilder s = new StringBuilder(Duration.ofNanos(x[0]).toMillis() + " ms:");
        for (Line l : lines.subList((int) x[1], (int) x[2] + 1)) {
            if (l.text().contains(cid)) {
                s.append("\n    +").append((l.receivedNanos() - start.receivedNanos()) / 1_000_000).append(" ms ").append(l.text());
            }
        }
        events.stream().filter(e -> e[0] >= start.receivedNanos() - 20_000_000_000L && e[0] <= start.receivedNanos() + x[0])
                .forEach(e -> s.append("\n    +").append((e[0] - start.receivedNanos()) / 1_000_000).append(" ms proxy ")
                        .append(e[1] < 0 ? "healed" : Cut.values()[(int) e[1]]));
        return s.toString();
    }

    /** The longest unanswered call: its duration and the indexes of its START and END lines. */
    private long[] slowest() {
        Map<String, Integer> started = new HashMap<>();
        long[] max = {0, 0, 0};
        String unknown = HistoryLines.END + Outcome.UNKNOWN.wireName() + " ";
        List<Line> lines = a.lines();
        for (Line l : lines) {
            String[] p = l.text().split(" ");
            if (l.text().startsWith(HistoryLines.START)) {
                started.put(p[2], l.index());
            } else if (l.text().startsWith(HistoryLines.END)) {
                Integer s = started.remove(p[3]);
                if (s != null && l.text().startsWith(unknown) && l.receivedNanos() - lines.get(s).receivedNanos() > max[0]) {
                    max = new long[] {l.receivedNanos() - lines.get(s).receivedNanos(), s, l.index()};
                }
            }
        }
        return max;
    }

    /** The longest take-over measured over every cut, from the cut to the lease held by B. */
    public Duration maxTakeOver() {
        return Duration.ofNanos(takeOvers.values().stream().flatMap(List::stream).mapToLong(Long::longValue).max().orElse(0));
    }

    /** Cuts done so far, of every kind. */
    public int cuts() {
        return takeOvers.values().stream().mapToInt(List::size).sum();
    }

    /** What the cycles measured, one line per kind of cut and per delay. */
    public String report(String store) {
        StringBuilder s = new StringBuilder("network faults on " + store + " (take-over bound " + takeOverBound.toMillis() + " ms):");
        for (Cut c : Cut.values()) {
            if (takeOvers.containsKey(c)) {
                s.append(String.format("%n  %s x%d: take-over p50 %d ms max %d ms; B's first step p50 %d ms max %d ms;"
                                + " A's first step after the heal p50 %d ms max %d ms (take-overs %s ms, recoveries %s ms)", c,
                        takeOvers.get(c).size(), p50(takeOvers.get(c)), max(takeOvers.get(c)), p50(firstSteps.get(c)),
                        max(firstSteps.get(c)), p50(recoveries.get(c)), max(recoveries.get(c)), ms(takeOvers.get(c)),
                        ms(recoveries.get(c))));
            }
        }
        delays.forEach(d -> s.append("\n  ").append(d));
        return s.toString();
    }

    private static List<Long> ms(List<Long> xs) {
        return xs.stream().map(x -> x / 1_000_000).toList();
    }

    private static long p50(List<Long> xs) {
        if (xs.isEmpty()) {
            return 0;
        }
        List<Long> sorted = xs.stream().sorted().toList();
        return sorted.get(sorted.size() / 2) / 1_000_000;
    }

    private static long max(List<Long> xs) {
        return xs.stream().mapToLong(Long::longValue).max().orElse(0) / 1_000_000;
    }
}
