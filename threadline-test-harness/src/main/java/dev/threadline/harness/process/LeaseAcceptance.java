package dev.threadline.harness.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.history.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The "paused and killed past the lease" acceptance of a shared store (issue 9), for any backend: two
 * {@link ClientChild} processes on one store, 64 client threads in all (4 per session in each process)
 * submitting turns with unique command ids to 8 shared sessions under a 1 s lease, while
 * {@link LeaseCycles} SIGSTOPs one process past its lease and SIGCONTs it, and SIGKILLs one and restarts
 * it (retrying its open calls under their ids). Every take-over of a stopped owner's session must take
 * less than {@link #TAKE_OVER_BOUND}, and the {@link HistoryChecker} must find no violation in the final
 * journals. Stateless.
 */
public final class LeaseAcceptance {
    /** The lease the children take: short, so that 50 pauses past it stay cheap. */
    public static final Duration TTL = Duration.ofSeconds(1);
    /**
     * Twice the lease, measured from just before the SIGSTOP to the moment this JVM sees the session's
     * lease held by the other process (whose first step on it must come within this plus
     * {@link LeaseCycles#FIRST_STEP_ALLOWANCE}).
     */
    public static final Duration TAKE_OVER_BOUND = TTL.multipliedBy(2);
    /** The shared sessions. */
    public static final List<String> SESSIONS = IntStream.range(0, 8).mapToObj(i -> "s" + i).toList();
    /** Client threads per session in each of the two processes: 2 x 8 x 4 = 64. */
    public static final int CLIENTS_PER_SESSION = 4;

    private LeaseAcceptance() {}

    /**
     * Runs {@code cycles} measured pauses and {@code cycles} kills on the fleet's store, checks the
     * history, prints and returns the report line.
     *
     * @param store       the backend's name, for the report
     * @param writerBlock how to tell a pause that blocks writers (see {@link LeaseCycles.WriterBlock})
     * @throws AssertionError on a slow take-over, an unexpected error, or any history violation
     * @throws InterruptedException when the test's thread is interrupted
     */
    public static String run(Fleet fleet, String store, int cycles, LeaseCycles.WriterBlock writerBlock)
            throws InterruptedException {
        Map<String, Object> args = Map.of("sessions", String.join(",", SESSIONS), "clients", CLIENTS_PER_SESSION,
                "skill", "slow", "ttlMillis", TTL.toMillis(), "waitMillis", 3000);
        LeaseCycles c = new LeaseCycles(fleet, args, TAKE_OVER_BOUND, writerBlock);
        c.run(cycles, 6 * cycles + 20);
        assertThat(fleet.history.inFlight()).as("calls still open after both quit").isZero();

        Map<String, List<StoredEvent>> journals = fleet.journals("acme", SESSIONS);
        String report = c.report(store, journals.values().stream().mapToLong(List::size).sum());
        System.out.println(report);
        assertThat(c.pauses() + c.kills()).isEqualTo(2 * cycles);
        assertThat(fleet.history.count(Outcome.OK)).as("acknowledged submissions").isGreaterThan(cycles);
        assertThat(fleet.errors).as("calls that ended with an unexpected exception").isEmpty();
        assertThat(fleet.fenced.get()).as("appends of a resumed process refused by fencing").isPositive();
        assertThat(journals.values().stream().flatMap(List::stream).filter(e -> e.event() instanceof Event.TurnInterrupted))
                .as("turns closed by a take-over").isNotEmpty();
        // the last kill may leave a turn open on a session nobody submitted to after it (reads never close it)
        HistoryChecker.of(fleet.history).allowingUnfinishedLastTurn().verify(journals);
        return report;
    }
}
