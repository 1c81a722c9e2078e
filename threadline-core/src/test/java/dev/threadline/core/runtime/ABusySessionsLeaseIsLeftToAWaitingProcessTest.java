package dev.threadline.core.runtime;

import dev.threadline.core.internal.engine.live.LeaseKeeper;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Regression (CI, {@code ReadersNeverWriteTest}): a process whose commands for one session came closer
 * together than the lease's linger never let the lease go, so a command of another process waited its
 * whole {@code leaseWait} and failed with "held by", however long it waited. Now the busy holder gives
 * the lease up once it has held it a whole ttl, and leaves it to others for a short yield.
 */
class ABusySessionsLeaseIsLeftToAWaitingProcessTest {
    private static final Duration TTL = Duration.ofMillis(200);
    private final StateStore store = new InMemoryStateStore();
    private final List<Threadline> runtimes = new ArrayList<>();
    private final ExecutorService loop = Executors.newSingleThreadExecutor();

    private Threadline runtime() {
        Threadline tl = Threadline.builder().store(store).model(TestSkills.gateModel()).leaseTtl(TTL)
                .leaseWait(Duration.ofSeconds(20)).build();
        runtimes.add(tl);
        return tl;
    }

    @AfterEach
    void close() {
        loop.shutdownNow();
        runtimes.forEach(Threadline::close);
    }

    @Test
    void aSubmitOfASecondRuntimeGetsInWhileTheFirstRunsTurnsBackToBack() throws Exception {
        Threadline busy = runtime();
        Threadline waiting = runtime();
        busy.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Session mine = busy.defaultTenant().open("s1");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger turns = new AtomicInteger();
        CompletableFuture<Void> started = new CompletableFuture<>();
        Future<?> backToBack = loop.submit(() -> {
            while (!stop.get()) {
                mine.submit("busy " + turns.incrementAndGet());
                started.complete(null);
            }
            return null;
        });
        started.get(30, TimeUnit.SECONDS);
        assertThat(store.lease(Engines.key("s1"))).as("the busy runtime holds the session").isPresent();

        // Without the yield this waits the whole 20 s leaseWait and fails with LeaseHeldException.
        TurnResult r = waiting.defaultTenant().open("s1").submit("from the other process");
        int turnsBefore = turns.get();
        stop.set(true);
        backToBack.get(30, TimeUnit.SECONDS);

        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(r.reply()).isEqualTo("ack from the other process");
        assertThat(turnsBefore).as("the busy runtime ran turns meanwhile").isPositive();
        assertThat(waiting.defaultTenant().open("s1").state().messages()).extracting(m -> m.text())
                .contains("from the other process", "ack from the other process", "busy 1", "ack busy 1");
    }

    @Test
    void theYieldIsATenthOfTheTtlBetween4And100Ms() {
        assertThat(dev.threadline.core.internal.engine.live.LeaseTimes.yieldFor(Duration.ofSeconds(15))).isEqualTo(Duration.ofMillis(100));
        assertThat(dev.threadline.core.internal.engine.live.LeaseTimes.yieldFor(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(50));
        assertThat(dev.threadline.core.internal.engine.live.LeaseTimes.yieldFor(Duration.ofMillis(40))).isEqualTo(Duration.ofMillis(4));
    }
}
