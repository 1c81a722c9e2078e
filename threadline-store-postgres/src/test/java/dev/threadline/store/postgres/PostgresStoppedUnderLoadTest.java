package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.history.Operation;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.ClientChild;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseAcceptance;
import dev.threadline.harness.servers.PgServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, acceptance "server faults" on PostgreSQL: two Threadline processes with 32 client threads
 * each on 8 shared sessions, and the server stopped (fast shutdown) under that load, {@link #OUTAGES}
 * time(s). While it is down every call fails within {@link #FAIL_FAST} with one line starting "store
 * unavailable: postgresql://"; once it is back the store answers both processes again, without their
 * being restarted, and the load goes on; and
 * the {@link HistoryChecker} finds nothing half-written in the final journals: every acknowledged turn
 * once, seqs gapless, turns never interleaved, transcripts valid, and no trace of a call that started
 * after the server went down and failed before it came back (such a call is judged failed: nothing can
 * have been written). Runs its own server, since it stops it.
 */
class PostgresStoppedUnderLoadTest {
    private static final int OUTAGES = 1;
    /**
     * A call that meets the outage fails fast: once the store has seen the server fail, each call tries one
     * direct connection (refused at once) instead of waiting the pool's 5 s connect timeout; measured under
     * 100 ms (20 s before that check). The bound, two connect timeouts, keeps a hang or a return to pool
     * waits out without failing on a slow machine.
     */
    private static final Duration FAIL_FAST = Duration.ofSeconds(10);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static PgServer server;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void startOwnServer() {
        server = PgServer.create();
        server.createDatabase("load");
    }

    @AfterAll
    static void stopOwnServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void callsFailFastWhileTheServerIsDownAndNothingIsHalfWritten() throws Exception {
        Map<String, Object> args = Map.of("sessions", String.join(",", LeaseAcceptance.SESSIONS), "clients", 2,
                "skill", "slow", "ttlMillis", 1000, "waitMillis", 3000);
        try (Fleet fleet = new Fleet(dir, server.url("load"))) {
            ChildProcess a = fleet.start("A#1", ClientChild.class, args);
            ChildProcess b = fleet.start("B#1", ClientChild.class, args);
            Outages outages = new Outages(fleet, List.of(a, b));
            fleet.awaitSteps(50, WAIT);
            for (int i = 0; i < OUTAGES; i++) {
                outages.stopServerUntilEachChildFailedACall(server, WAIT); // and starts it again
                outages.awaitAnswersOfEach(WAIT); // the store answers both again: recovered without a restart
                fleet.awaitSteps(50, WAIT); // and the load goes on
            }
            fleet.quit(a);
            fleet.quit(b);

            System.out.println(outages.report());
            assertThat(fleet.history.inFlight()).isZero();
            assertThat(outages.failedInOutage()).as("calls that failed while the server was down").isNotEmpty();
            assertThat(outages.slowestFailure()).as("the slowest call that failed while the server was down")
                    .isLessThan(FAIL_FAST);
            assertThat(fleet.errors).as("every error is the one-line 'store unavailable'")
                    .allMatch(e -> e.contains(" store unavailable: postgresql://"));
            List<Operation> judged = outages.judged(fleet.history.operations());
            Map<String, List<StoredEvent>> journals = fleet.journals("acme", LeaseAcceptance.SESSIONS);
            HistoryChecker.of(judged).verify(journals);
        }
    }
}
