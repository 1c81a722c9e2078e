package dev.threadline.harness.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.history.Operation;
import dev.threadline.harness.history.Outcome;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pause and kill cycles of a "paused past the lease" test on two {@link ClientChild} roles, A and B,
 * on one store, each one live incarnation at a time ({@code A#1}, {@code A#2}, ... after restarts), with
 * what they measured. A pause stops whichever process just started a tool call (mid-turn, holding that
 * session's lease) until the other one appends to that session; a kill SIGKILLs it and starts its next
 * incarnation, which retries the calls in flight under their command ids. Each role's next incarnation
 * is booted ahead as a standby ({@link ClientChild} with {@code standby=true}: a new JVM that has opened
 * the store and its sessions and runs nothing until told {@code GO}), so a restart costs no JVM start
 * inside the cycle; it takes over nothing of the killed one but what a fresh process would. Not
 * thread-safe (the test thread drives it).
 */
public final class LeaseCycles {
    /**
     * Whether a paused child blocks every writer of the session it was paused on until it resumes (for
     * example it holds a database lock inside a write transaction): such a pause is no lease test.
     * Called on the test's thread.
     */
    @FunctionalInterface
    public interface WriterBlock {
        /** Never: the store holds no lock for a client between its calls (e.g. one server-side script per step). */
        WriterBlock NEVER = paused -> false;

        /** Whether {@code paused}, now stopped, blocks other writers. */
        boolean blocksWriters(ChildProcess paused);
    }

    private static final Duration STEP_WAIT = Duration.ofSeconds(30);
    /**
     * How much longer than the take-over bound the new owner's first step may take: catching up with the
     * journal, closing the turn (a commit) and the pipe, with room for a machine whose two cores run
     * several builds (a liveness check; the take-over itself is held to the bound).
     */
    public static final Duration FIRST_STEP_ALLOWANCE = Duration.ofSeconds(3);
    private static final String TENANT = "acme";

    private final Fleet fleet;
    private final Map<String, ?> args;
    private final Duration takeOverBound;
    private final WriterBlock writerBlock;
    private final Map<String, ChildProcess> live = new TreeMap<>();
    private final Map<String, Integer> incarnations = new TreeMap<>();
    private final Map<String, ChildProcess> standby = new TreeMap<>();
    private final Map<String, Object> standbyArgs;
    private final java.util.Set<String> shared;
    private final long startedAt = System.nanoTime();
    private int pauses;
    private int kills;
    private int pausesInTransaction;
    private boolean measureOnly;
    private int overBound;
    private long maxTakeOverNanos;
    private long sumTakeOverNanos;
    private long maxFirstStepNanos;
    private long waitingNanos;
    private long restartNanos;

    /**
     * Starts A#1 and B#1 with {@code args} (see {@link ClientChild}) and waits until both are ready.
     *
     * @param takeOverBound how soon the lease of a paused process's session must pass to the other process
     * @param writerBlock   how to tell a pause that blocks every writer (then resumed at once, not counted)
     */
    public LeaseCycles(Fleet fleet, Map<String, ?> args, Duration takeOverBound, WriterBlock writerBlock) {
        this.fleet = fleet;
        this.args = args;
        this.takeOverBound = takeOverBound;
        this.writerBlock = writerBlock;
        Map<String, Object> sb = new java.util.HashMap<>(args);
        sb.put("standby", true);
        this.standbyArgs = Map.copyOf(sb);
        this.shared = java.util.Set.of(String.valueOf(args.get("sessions")).split(","));
        for (String role : List.of("A", "B")) {
            incarnations.put(role, 1);
            live.put(role, fleet.start(role + "#1", ClientChild.class, args));
        }
        for (String role : List.of("A", "B")) {
            standby.put(role, fleet.launch(role + "#2", ClientChild.class, standbyArgs));
        }
        fleet.store().lease(new SessionKey(TENANT, first(args))); // connect now, not inside the first measurement
    }

    private static String first(Map<String, ?> args) {
        return String.valueOf(args.get("sessions")).split(",")[0];
    }

    /**
     * Pauses the process that next starts a tool call, mid-turn; unless it blocks every writer (then it is
     * resumed at once and false returned), waits until this JVM sees the session's lease held by another
     * process (the take-over, asserted to take less than the bound) and then for the other process's first
     * step on the session (asserted to come within the bound plus {@link #FIRST_STEP_ALLOWANCE}), and resumes it.
     *
     * @throws InterruptedException when the test's thread is interrupted
     */
    public boolean pause() throws InterruptedException {
        long readyFrom = System.nanoTime();
        live.values().forEach(Fleet::awaitReady); // the side not paused is the one that takes over
        restartNanos += System.nanoTime() - readyFrom;
        Fleet.Ack midTurn = nextToolStart();
        ChildProcess target = live.get(role(midTurn.child()));
        ChildProcess other = live.get(role(midTurn.child()).equals("A") ? "B" : "A");
        long t0 = System.nanoTime();
        target.pause();
        if (writerBlock.blocksWriters(target)) {
            target.resume(); // no process could write until it resumes: not a lease test
            pausesInTransaction++;
            return false;
        }
        SessionKey key = new SessionKey(TENANT, midTurn.session());
        long took = awaitTakeOver(key, target, t0) - t0;
        long firstStep = awaitAppend(other, target, midTurn.session(), t0).receivedNanos() - t0;
        if (measureOnly) {
            overBound += took >= takeOverBound.toNanos() ? 1 : 0;
        } else {
            assertThat(Duration.ofNanos(took)).as("pause %d: the lease of %s moved from the stopped %s", pauses,
                    midTurn.session(), target.name()).isLessThan(takeOverBound);
            assertThat(Duration.ofNanos(firstStep)).as("pause %d: %s's first step on %s after the stop of %s", pauses,
                    other.name(), midTurn.session(), target.name()).isLessThan(takeOverBound.plus(FIRST_STEP_ALLOWANCE));
        }
        maxTakeOverNanos = Math.max(maxTakeOverNanos, took);
        sumTakeOverNanos += took;
        maxFirstStepNanos = Math.max(maxFirstStepNanos, firstStep);
        target.resume();
        pauses++;
        return true;
    }

    /**
     * Polls the store (bounded) until the session's lease belongs to another process than the paused one
     * (a runtime's lease owner is {@code host/pid/...}); returns when this JVM saw it so. Under load the
     * paused process may have lost the lease before the pause: then that is at once.
     */
    private long awaitTakeOver(SessionKey key, ChildProcess paused, long since) {
        Optional<Lease> first = fleet.store().lease(key);
        return fleet.awaitLeaseLeaves(key, paused, since + takeOverBound.plus(STEP_WAIT).toNanos(), seen -> "its lease of "
                + key.id() + " (" + first + ") was not taken over within " + takeOverBound.plus(STEP_WAIT)
                + " of its SIGSTOP; the lease is now " + seen);
    }

    /**
     * Kills the process that next starts a tool call, tells its next incarnation (the standby) to go without
     * waiting for it, has it retry the calls the killed one's clients had in flight, under their command ids
     * (a retry cut short by a later kill is not retried again, so retries do not pile up), and boots the
     * incarnation after it as the role's new standby.
     *
     * @throws InterruptedException when the test's thread is interrupted
     */
    public void kill() throws InterruptedException {
        Fleet.Ack midTurn = nextToolStart();
        String role = role(midTurn.child());
        ChildProcess target = live.get(role);
        List<Operation> inFlight = fleet.kill(target);
        int n = incarnations.merge(role, 1, Integer::sum);
        ChildProcess next = standby.remove(role); // role#n, booted ahead
        next.send("GO");
        live.put(role, next);
        String own = target.name().replace('#', '.') + "-";
        for (Operation op : inFlight) {
            if (op.commandId().startsWith(own)) {
                next.send("SUBMIT " + op.session() + " " + op.commandId() + " " + op.text());
            }
        }
        standby.put(role, fleet.launch(role + "#" + (n + 1), ClientChild.class, standbyArgs));
        kills++;
    }

    /** Asks both live processes and both standbys to quit and waits for them. */
    public void quit() {
        live.values().forEach(fleet::quit);
        standby.values().forEach(fleet::quit);
    }

    /**
     * Measures take-overs instead of asserting their bound: for a soak, whose verdict is the history checker's
     * and whose take-over times are reported ({@link #overBound()}, {@link #maxTakeOver()}); the take-over and
     * the first step must still come (within 30 s). Returns this.
     */
    public LeaseCycles measuringTakeOvers() {
        measureOnly = true;
        return this;
    }

    /** Take-overs that took the bound or longer, when {@link #measuringTakeOvers()} (0 otherwise: they fail the test). */
    public int overBound() {
        return overBound;
    }

    /** Pauses measured so far (past the lease, outside a write transaction). */
    public int pauses() {
        return pauses;
    }

    /** Kills (and restarts) so far. */
    public int kills() {
        return kills;
    }

    /** Pauses that blocked every writer, resumed at once and not counted as pauses. */
    public int pausesInTransaction() {
        return pausesInTransaction;
    }

    /** The longest take-over measured, from just before a SIGSTOP to the session's lease held by the other process. */
    public Duration maxTakeOver() {
        return Duration.ofNanos(maxTakeOverNanos);
    }

    /**
     * Runs {@code cycles} measured pauses and {@code cycles} kills, kills in pairs between pairs of pauses, then quits
     * both.
     *
     * @throws InterruptedException when the test's thread is interrupted
     */
    public void run(int cycles, int maxAttempts) throws InterruptedException {
        for (int attempt = 1; pauses < cycles || kills < cycles; attempt++) {
            if (attempt > maxAttempts) {
                throw new AssertionError("more than " + maxAttempts + " attempts (" + pausesInTransaction
                        + " pauses blocked every writer)");
            }
            int done = pauses + kills;
            if (kills == cycles || pauses < cycles && done % 4 != 1 && done % 4 != 2) {
                pause();
            } else {
                kill();
            }
        }
        quit();
    }

    /**
     * One more cycle in the same rhythm as {@link #run} without an end (pause, kill, kill, pause, ...): for
     * runs bounded by time. Returns whether it counted (a pause that blocked every writer does not).
     *
     * @throws InterruptedException when the test's thread is interrupted
     */
    public boolean cycle() throws InterruptedException {
        int done = pauses + kills;
        if (done % 4 == 1 || done % 4 == 2) {
            kill();
            return true;
        }
        return pause();
    }

    /** The incarnations running now, one per role (not the standbys). */
    public List<ChildProcess> live() {
        return List.copyOf(live.values());
    }

    /** One line of what the run did and measured. */
    public String report(String store, long journalEvents) {
        return String.format("paused-past-the-lease on %s: %d pauses past the lease (and %d that blocked every writer, resumed"
                        + " at once) and %d kills in %d s (%d ms waiting for tool starts, %d ms for restarts); lease take-over max"
                        + " %d ms, mean %d ms (bound %d ms), new owner's first step max %d ms; operations ok=%d failed=%d unknown=%d (fenced %d); %d journal events",
                store, pauses, pausesInTransaction, kills, Duration.ofNanos(System.nanoTime() - startedAt).toSeconds(),
                waitingNanos / 1_000_000, restartNanos / 1_000_000, maxTakeOverNanos / 1_000_000,
                pauses == 0 ? 0 : sumTakeOverNanos / pauses / 1_000_000, takeOverBound.toMillis(), maxFirstStepNanos / 1_000_000,
                fleet.history.count(Outcome.OK), fleet.history.count(Outcome.FAILED), fleet.history.count(Outcome.UNKNOWN),
                fleet.fenced.get(), journalEvents);
    }

    private static String role(String incarnation) {
        return incarnation.substring(0, 1);
    }

    /** The next step of any child that started tool calls: that child is mid-turn on that session. */
    private Fleet.Ack nextToolStart() throws InterruptedException {
        fleet.clearAcks();
        long from = System.nanoTime();
        long deadline = from + STEP_WAIT.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                Fleet.Ack a = fleet.nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                if (a != null && a.started() && shared.contains(a.session())) { // not a branch only its maker writes
                    return a;
                }
            }
            throw new AssertionError("no child started a tool call within " + STEP_WAIT);
        } finally {
            waitingNanos += System.nanoTime() - from;
        }
    }

    /** The first step {@code child} committed on {@code session} that this JVM read after {@code since}. */
    private Fleet.Ack awaitAppend(ChildProcess child, ChildProcess paused, String session, long since)
            throws InterruptedException {
        Duration wait = takeOverBound.plus(STEP_WAIT);
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            Fleet.Ack a = fleet.nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (a != null && a.child().equals(child.name()) && a.session().equals(session) && a.receivedNanos() >= since) {
                return a;
            }
        }
        throw new AssertionError(child.describe("never appended to " + session + " within " + wait + " of the other's SIGSTOP")
                + "\n" + paused.describe("paused " + Duration.ofNanos(System.nanoTime() - since).toMillis() + " ms ago"));
    }
}
