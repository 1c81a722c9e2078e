package dev.threadline.store.sqlite.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.store.tck.history.HistoryChecker;
import dev.threadline.store.tck.history.Operation;
import dev.threadline.store.tck.history.Outcome;
import dev.threadline.store.tck.process.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7, acceptance 2 ("paused past the lease"): two JVMs, A and B, on one SQLite file, each with two
 * client threads per session on three shared sessions, submitting turns with unique command ids under a
 * 1 s lease. The test repeatedly
 * <ul>
 *   <li>SIGSTOPs whichever process just started a tool call (it is mid-turn, holding that session's lease),
 *       keeps it stopped until the other process appends to that session (it took the lease over and closed
 *       the turn), asserts that this took less than {@link #TAKE_OVER_BOUND}, and SIGCONTs it: its next
 *       append is refused by fencing (the call ends as unknown, {@code LOST});</li>
 *   <li>SIGKILLs whichever process just started a tool call and restarts it, retrying the calls it had in
 *       flight under their command ids (they must take effect at most once, and exactly once if the retry
 *       is acknowledged).</li>
 * </ul>
 * Every child reports each call as ok / failed / unknown; calls in flight at a kill are unknown. At the
 * end the {@link HistoryChecker} finds zero violations in the final journals: every ok submission appears
 * exactly once, unknown ones at most once, failed ones never, seqs gapless, turns never interleaved,
 * transcripts valid. {@code -Dthreadline.leaseCycles=N} runs N cycles of each kind instead of 50.
 */
class PausedPastTheLeaseTest {
    private static final Duration TTL = Duration.ofSeconds(1);
    /**
     * The take-over bound, measured from just before the SIGSTOP to the moment this JVM reads the other
     * process's ACK of its first step on the session: 2 x the lease, plus 500 ms for the lease-wait poll
     * interval (the waiting side looks at the lease every 100 ms at most), the closing step's commit
     * (fsync) and the pipe between the processes.
     */
    static final Duration TAKE_OVER_BOUND = TTL.multipliedBy(2).plusMillis(500);
    private static final int CYCLES = Integer.getInteger("threadline.leaseCycles", 50);
    private static final List<String> SESSIONS = List.of("p0", "p1", "p2");
    private static final Duration STEP_WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aProcessPausedOrKilledPastItsLeaseIsFencedOffAndNoHistoryIsViolated() throws Exception {
        Map<String, Object> args = Map.of("sessions", String.join(",", SESSIONS), "clients", 2, "skill", "slow",
                "ttlMillis", TTL.toMillis(), "waitMillis", 3000);
        long startedAt = System.nanoTime();
        long maxTakeOver = 0;
        int stops = 0;
        int kills = 0;
        Map<String, Integer> incarnations = new TreeMap<>(Map.of("A", 1, "B", 1));
        try (Fleet fleet = new Fleet(dir, dir.resolve("lease.db"))) {
            Map<String, ChildProcess> live = new TreeMap<>();
            live.put("A", fleet.start("A#1", ClientChild.class, args));
            live.put("B", fleet.start("B#1", ClientChild.class, args));

            for (int cycle = 0; cycle < 2 * CYCLES; cycle++) {
                fleet.clearAcks();
                Fleet.Ack midTurn = awaitToolStart(fleet);
                String role = midTurn.child().substring(0, 1);
                ChildProcess target = live.get(role);
                ChildProcess other = live.get(role.equals("A") ? "B" : "A");
                if (cycle % 2 == 0) {
                    long t0 = System.nanoTime();
                    target.pause();
                    Fleet.Ack takeOver = awaitAck(fleet, other.name(), midTurn.session(), t0);
                    long took = takeOver.receivedNanos() - t0;
                    assertThat(Duration.ofNanos(took)).as("cycle %d: %s took %s over from the stopped %s",
                            cycle, other.name(), midTurn.session(), target.name()).isLessThan(TAKE_OVER_BOUND);
                    maxTakeOver = Math.max(maxTakeOver, took);
                    target.resume();
                    stops++;
                } else {
                    List<Operation> inFlight = fleet.kill(target);
                    String name = role + "#" + incarnations.merge(role, 1, Integer::sum);
                    ChildProcess restarted = fleet.start(name, ClientChild.class, args);
                    live.put(role, restarted);
                    for (Operation op : inFlight) {
                        restarted.send("SUBMIT " + op.session() + " " + op.commandId() + " " + op.text());
                    }
                    kills++;
                }
            }
            for (ChildProcess c : live.values()) {
                fleet.quit(c);
            }
            assertThat(fleet.history.inFlight()).as("calls still open after both quit").isZero();

            Map<String, List<StoredEvent>> journals = fleet.journals("acme", SESSIONS);
            report(fleet, journals, stops, kills, maxTakeOver, startedAt);
            assertThat(stops).isEqualTo(CYCLES);
            assertThat(kills).isEqualTo(CYCLES);
            assertThat(fleet.history.count(Outcome.OK)).isGreaterThan(4L * CYCLES);
            assertThat(fleet.errors).as("calls that ended with an unexpected exception").isEmpty();
            assertThat(fleet.fenced.get()).as("appends of a resumed process refused by fencing").isPositive();
            assertThat(journals.values().stream().flatMap(List::stream).filter(e -> e.event() instanceof Event.TurnInterrupted))
                    .as("turns closed by a take-over").isNotEmpty();
            // the last kill may leave a turn open on a session nobody submitted to after it (reads never close it)
            HistoryChecker.of(fleet.history).allowingUnfinishedLastTurn().verify(journals);
        }
    }

    /** The next step of any child that started tool calls: that child is mid-turn on that session. */
    private static Fleet.Ack awaitToolStart(Fleet fleet) throws InterruptedException {
        long deadline = System.nanoTime() + STEP_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Fleet.Ack a = fleet.nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (a != null && a.started()) {
                return a;
            }
        }
        throw new AssertionError("no child started a tool call within " + STEP_WAIT);
    }

    /** The first step {@code child} committed on {@code session} that this JVM read after {@code since}. */
    private static Fleet.Ack awaitAck(Fleet fleet, String child, String session, long since) throws InterruptedException {
        Duration wait = TAKE_OVER_BOUND.plus(STEP_WAIT);
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            Fleet.Ack a = fleet.nextAck(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (a != null && a.child().equals(child) && a.session().equals(session) && a.receivedNanos() >= since) {
                return a;
            }
        }
        throw new AssertionError(child + " never appended to " + session + " within " + wait + " of the other's SIGSTOP");
    }

    private static void report(Fleet fleet, Map<String, List<StoredEvent>> journals, int stops, int kills, long maxTakeOver,
                               long startedAt) {
        long events = journals.values().stream().mapToLong(List::size).sum();
        System.out.printf("paused-past-the-lease: %d stop/continue and %d kill cycles in %d s; max take-over %d ms (bound %d ms);"
                        + " operations ok=%d failed=%d unknown=%d (fenced %d); %d journal events%n",
                stops, kills, Duration.ofNanos(System.nanoTime() - startedAt).toSeconds(), maxTakeOver / 1_000_000,
                TAKE_OVER_BOUND.toMillis(), fleet.history.count(Outcome.OK), fleet.history.count(Outcome.FAILED),
                fleet.history.count(Outcome.UNKNOWN), fleet.fenced.get(), events);
    }
}
