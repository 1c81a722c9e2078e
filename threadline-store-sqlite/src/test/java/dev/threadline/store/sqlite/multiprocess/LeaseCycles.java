package dev.threadline.store.sqlite.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.store.tck.history.Operation;
import dev.threadline.store.tck.history.Outcome;
import dev.threadline.store.tck.process.ChildProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pause and kill cycles of {@link PausedPastTheLeaseTest} on two client roles, A and B, each one
 * live incarnation at a time ({@code A#1}, {@code A#2}, ... after restarts), with what they measured.
 * Not thread-safe (the test thread drives it).
 */
final class LeaseCycles {
    private static final Duration STEP_WAIT = Duration.ofSeconds(30);

    private final Fleet fleet;
    private final Map<String, ?> args;
    private final Duration takeOverBound;
    private final Map<String, ChildProcess> live = new TreeMap<>();
    private final Map<String, Integer> incarnations = new TreeMap<>();
    private final long startedAt = System.nanoTime();
    int pauses;
    int kills;
    int pausesInTransaction;
    long maxTakeOverNanos;
    private long waitingNanos;
    private long restartNanos;

    LeaseCycles(Fleet fleet, Map<String, ?> args, Duration takeOverBound) {
        this.fleet = fleet;
        this.args = args;
        this.takeOverBound = takeOverBound;
        for (String role : List.of("A", "B")) {
            incarnations.put(role, 1);
            live.put(role, fleet.start(role + "#1", ClientChild.class, args));
        }
    }

    /**
     * Pauses the process that next starts a tool call, mid-turn; unless it holds SQLite's write lock
     * (then it is resumed at once and false returned), waits for the other process to append to that
     * session, asserts that this took less than the bound, and resumes it.
     */
    boolean pause() throws InterruptedException {
        long readyFrom = System.nanoTime();
        live.values().forEach(Fleet::awaitReady); // the side not paused is the one that takes over
        restartNanos += System.nanoTime() - readyFrom;
        Fleet.Ack midTurn = nextToolStart();
        ChildProcess target = live.get(role(midTurn.child()));
        ChildProcess other = live.get(role(midTurn.child()).equals("A") ? "B" : "A");
        long t0 = System.nanoTime();
        target.pause();
        if (SqliteWriteLock.heldBy(target.pid(), fleet.db())) {
            target.resume(); // no process could write until it resumes: not a lease test
            pausesInTransaction++;
            return false;
        }
        long took = awaitAppend(other, target, midTurn.session(), t0).receivedNanos() - t0;
        assertThat(Duration.ofNanos(took)).as("pause %d: %s took %s over from the stopped %s", pauses, other.name(),
                midTurn.session(), target.name()).isLessThan(takeOverBound);
        maxTakeOverNanos = Math.max(maxTakeOverNanos, took);
        target.resume();
        pauses++;
        return true;
    }

    /**
     * Kills the process that next starts a tool call, starts its next incarnation without waiting for it,
     * and has it retry the calls the killed one's clients had in flight, under their command ids (a retry cut
     * short by a later kill is not retried again, so retries do not pile up).
     */
    void kill() throws InterruptedException {
        Fleet.Ack midTurn = nextToolStart();
        String role = role(midTurn.child());
        ChildProcess target = live.get(role);
        List<Operation> inFlight = fleet.kill(target);
        ChildProcess next = fleet.launch(role + "#" + incarnations.merge(role, 1, Integer::sum), ClientChild.class, args);
        live.put(role, next);
        String own = target.name().replace('#', '.') + "-";
        for (Operation op : inFlight) {
            if (op.commandId().startsWith(own)) {
                next.send("SUBMIT " + op.session() + " " + op.commandId() + " " + op.text());
            }
        }
        kills++;
    }

    /** Asks both live processes to quit and waits for them. */
    void quit() {
        live.values().forEach(fleet::quit);
    }

    /** One line of what the run did and measured. */
    String report(long journalEvents) {
        return String.format("paused-past-the-lease: %d pauses past the lease (and %d inside a write transaction, resumed"
                        + " at once) and %d kills in %d s (%d ms waiting for tool starts, %d ms for restarts); max take-over"
                        + " %d ms (bound %d ms); operations ok=%d failed=%d unknown=%d (fenced %d); %d journal events",
                pauses, pausesInTransaction, kills, Duration.ofNanos(System.nanoTime() - startedAt).toSeconds(),
                waitingNanos / 1_000_000, restartNanos / 1_000_000, maxTakeOverNanos / 1_000_000, takeOverBound.toMillis(),
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
                if (a != null && a.started()) {
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
