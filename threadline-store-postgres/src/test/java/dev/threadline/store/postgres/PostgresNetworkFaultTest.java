package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.harness.history.HistoryChecker;
import dev.threadline.harness.process.ChildProcess;
import dev.threadline.harness.process.ClientChild;
import dev.threadline.harness.process.Fleet;
import dev.threadline.harness.process.LeaseAcceptance;
import dev.threadline.harness.process.NetworkFaultCycles;
import dev.threadline.harness.process.NetworkFaultCycles.Cut;
import dev.threadline.harness.servers.FaultProxy;
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
 * Issue 25 item 4, "network faults", on PostgreSQL: two Threadline processes with 2 client threads per
 * session on 8 shared sessions (leases of 1 s), A through a {@link FaultProxy}, B directly; A also writes a
 * session of its own. Each cut (black hole, reset, drop) of A's path: the lease of the shared session A was
 * mid-turn on passes to B within 2 x the lease, B steps on it, one of A's calls ends unknown, and once the
 * path heals A acknowledges steps again without a restart. Then A's path is slowed by 200 ms, 1 s and 2 s
 * per chunk (A's steps on its own session timed), and A must step again after. The {@link HistoryChecker}
 * judges the final journals: every acknowledged step once, no turn interleaved or left open (a write of
 * A's under a lapsed lease would show here), seqs gapless.
 *
 * <p>A's URL carries two settings that make the bound hold and are what docs/reliability.md recommends
 * for a node whose network can fail. {@code socketTimeout=3}: a black-holed statement fails after 3 s
 * instead of the default query timeout (30 s), so the cut-off process learns of the cut. And
 * {@code options=-c idle_in_transaction_session_timeout=1000}: a process cut off inside a transaction of
 * several statements holds that session's row lock (where the lease lives) for as long as the server
 * keeps its connection, which no keepalive ends while the path is only silent; the server ends such a
 * transaction after 1 s idle (a healthy step does not idle between its statements; 500 ms set on the
 * whole server ended transactions of B's cold JVM on this 2-core machine). Without it, B could not take
 * the lease until the path heals. Its price shows under the delays: at 1 s and more per chunk every
 * transaction of several statements idles past it, and A commits nothing (nor could it keep a 1 s lease).
 * Each store call of a cut-off A ends within its timeouts (PostgresBlackHoledPathTest); one of A's calls, a
 * turn, may take several of them (the runtime runs a session's calls one at a time, and a failed step is
 * followed by store calls of its own): a call of A through the cuts is held to four socket timeouts, a
 * connect timeout (5 s) and some room.
 * {@code -Dthreadline.netFaultCycles=N} runs N cuts of each kind (default 2).
 */
class PostgresNetworkFaultTest {
    private static final int CYCLES = Integer.getInteger("threadline.netFaultCycles", 2);
    private static final Duration LEASE = Duration.ofSeconds(1);
    /** A session only A writes. */
    private static final String OWN = "a0";
    private static final List<String> SESSIONS = java.util.stream.Stream.concat(LeaseAcceptance.SESSIONS.stream(),
            java.util.stream.Stream.of(OWN)).toList();
    private static PgServer server;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void startOwnServer() {
        server = PgServer.create();
        server.createDatabase("net");
    }

    @AfterAll
    static void stopOwnServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aProcessCutOffFromTheDatabaseIsTakenOverAndGoesOnWhenThePathHeals() throws Exception {
        Map<String, Object> args = Map.of("sessions", String.join(",", LeaseAcceptance.SESSIONS), "clients", 2,
                "skill", "slow", "ttlMillis", LEASE.toMillis(), "waitMillis", 3000, "backoffMillis", 100);
        String direct = server.url("net");
        try (FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port());
             Fleet fleet = new Fleet(dir, direct, name -> name.startsWith("A")
                     ? "postgresql://" + PgServer.USER + "@127.0.0.1:" + proxy.port() + "/net?socketTimeout=3&options=-c%20idle_in_transaction_session_timeout%3D1000" : direct)) {
            Map<String, Object> aArgs = new java.util.HashMap<>(args);
            aArgs.put("sessions", String.join(",", SESSIONS)); // and one of its own, to time its calls alone
            ChildProcess a = fleet.start("A#1", ClientChild.class, aArgs);
            ChildProcess b = fleet.start("B#1", ClientChild.class, args);
            NetworkFaultCycles cycles = new NetworkFaultCycles(fleet, proxy, a, b, LEASE.multipliedBy(2), OWN);
            for (int i = 0; i < CYCLES; i++) {
                for (Cut cut : Cut.values()) {
                    cycles.cut(cut);
                }
            }
            Duration slowest = cycles.slowestUnanswered();
            String slowestCall = cycles.slowestUnansweredCall(); // of the cuts (under a delay a call may wait for the pool too)
            for (Duration d : List.of(Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofSeconds(2))) {
                cycles.delay(d);
            }
            cycles.awaitStepOfA(OWN); // goes on after the delays too (and closes a turn a delay cut short)
            fleet.quit(a);
            fleet.quit(b);

            System.out.println(cycles.report("PostgreSQL") + "\n  slowest unanswered call of A through the cuts " + slowestCall
                    + " ms; operations " + fleet.history.operations().size()
                    + ", fenced " + fleet.fenced.get() + ", errors " + fleet.errors.size());
            assertThat(cycles.cuts()).isEqualTo(CYCLES * Cut.values().length);
            assertThat(slowest).as("the slowest of A's calls the store did not answer: %s", slowestCall)
                    .isLessThan(Duration.ofSeconds(22)); // see the class comment
            assertThat(fleet.history.inFlight()).isZero();
            assertThat(fleet.errors).as("B, on a sound path, meets no error").noneMatch(e -> e.startsWith("B#"));
            Map<String, List<StoredEvent>> journals = fleet.journals("acme", SESSIONS);
            HistoryChecker.of(fleet.history.operations()).verify(journals);
        }
    }
}
