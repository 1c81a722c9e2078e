package dev.threadline.store.redis;

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
import dev.threadline.harness.servers.RedisProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 4, "network faults", on Redis: two Threadline processes with 2 client threads per session on
 * 8 shared sessions (leases of 1 s), A through a {@link FaultProxy}, B directly; A also writes a session of
 * its own. Each cut (black hole, reset) of A's path: the lease of the shared session A was mid-turn on
 * passes to B within 2 x the lease, B steps on it, one of A's calls ends unknown, and once the path heals A
 * acknowledges steps again without a restart (Lettuce's reconnect, no new store). Black-holed, A's commands are
 * not refused (the connection is still up) but expire after the store's command timeout (10 s by default). What A sent into the black hole reaches the server when the path heals, after B
 * took the lease: the scripts' fencing refuses it, and the {@link HistoryChecker} would see a write of A's
 * under a lapsed lease as an interleaved turn. Then A's path is slowed by 200 ms per chunk.
 * Each store call of a cut-off A ends within the command timeout (RedisBlackHoledPathTest); one of A's calls,
 * a turn, may take several of them: the runtime runs a session's calls one at a time, so a call may wait behind
 * another's, and a failed step is followed by its own store calls (closing the turn, releasing the lease). A
 * call of A is held to four command timeouts and some room (measured: up to about three).
 * {@code -Dthreadline.netFaultCycles=N} runs N cuts of each kind (default 2).
 */
class RedisNetworkFaultTest {
    private static final int CYCLES = Integer.getInteger("threadline.netFaultCycles", 2);
    private static final Duration LEASE = Duration.ofSeconds(1);
    private static final String OWN = "a0";
    private static final List<String> SESSIONS = Stream.concat(LeaseAcceptance.SESSIONS.stream(), Stream.of(OWN)).toList();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aProcessCutOffFromRedisIsTakenOverAndGoesOnWhenThePathHeals() throws Exception {
        Map<String, Object> args = Map.of("sessions", String.join(",", LeaseAcceptance.SESSIONS), "clients", 2,
                "skill", "slow", "ttlMillis", LEASE.toMillis(), "waitMillis", 3000, "backoffMillis", 100);
        try (RedisProcess server = RedisProcess.start(List.of());
             FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port());
             Fleet fleet = new Fleet(dir, server.url(), name -> name.startsWith("A")
                     ? "redis://127.0.0.1:" + proxy.port() : server.url())) {
            Map<String, Object> aArgs = new HashMap<>(args);
            aArgs.put("sessions", String.join(",", SESSIONS));
            ChildProcess a = fleet.start("A#1", ClientChild.class, aArgs);
            ChildProcess b = fleet.start("B#1", ClientChild.class, args);
            NetworkFaultCycles cycles = new NetworkFaultCycles(fleet, proxy, a, b, LEASE.multipliedBy(2), OWN);
            for (int i = 0; i < CYCLES; i++) {
                cycles.cut(Cut.BLACKHOLE);
                cycles.cut(Cut.RESET);
            }
            Duration slowest = cycles.slowestUnanswered();
            String slowestCall = cycles.slowestUnansweredCall(); // of the cuts
            cycles.delay(Duration.ofMillis(200));
            cycles.awaitStepOfA(OWN);
            fleet.quit(a);
            fleet.quit(b);

            System.out.println(cycles.report("Redis") + "\n  slowest unanswered call of A through the cuts " + slowestCall
                    + " ms; operations " + fleet.history.operations().size()
                    + ", fenced " + fleet.fenced.get() + ", errors " + fleet.errors.size());
            assertThat(cycles.cuts()).isEqualTo(CYCLES * 2);
            assertThat(slowest).as("the slowest of A's calls the store did not answer: %s", slowestCall)
                    .isLessThan(Duration.ofSeconds(45)); // see the class comment
            assertThat(fleet.history.inFlight()).isZero();
            assertThat(fleet.errors).as("B, on a sound path, meets no error").noneMatch(e -> e.startsWith("B#"));
            Map<String, List<StoredEvent>> journals = fleet.journals("acme", SESSIONS);
            HistoryChecker.of(fleet.history.operations()).verify(journals);
        }
    }
}
