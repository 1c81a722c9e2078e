package dev.threadline.core.runtime;

import dev.threadline.core.internal.engine.live.LeaseTimes;
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
import java.util.concurrent.Semaphore;
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
 *
 * <p>Both runtimes and the store keep time on one {@link TestClock}, and their waits on one
 * {@link ManualScheduler}, so the test decides when time passes: the busy runtime's commands come
 * back to back (well within its linger, which is longer than the whole test's time), the clock moves on
 * past one ttl, and the waiting runtime's next try, which the test lets happen only once the busy
 * runtime has yielded, gets the session. Nothing waits for real time to pass.
 */
class ABusySessionsLeaseIsLeftToAWaitingProcessTest {
    private static final Duration TTL = Duration.ofSeconds(15);
    /** Longer than every move of the clock here: without the yield the busy runtime keeps the lease. */
    private static final Duration LINGER = Duration.ofMinutes(10);
    private final TestClock clock = new TestClock();
    private final ManualScheduler ticks = new ManualScheduler(clock);
    private final StateStore store = new InMemoryStateStore(clock);
    private final List<Threadline> runtimes = new ArrayList<>();
    private final ExecutorService loop = Executors.newSingleThreadExecutor();

    private Threadline runtime(Duration linger) {
        Threadline tl = Threadline.builder().store(store).clock(clock).scheduler(ticks).model(TestSkills.gateModel()).leaseTtl(TTL)
                .leaseWait(Duration.ofMinutes(1)).leaseLinger(linger).build();
        runtimes.add(tl);
        return tl;
    }

    @AfterEach
    void close() {
        loop.shutdownNow();
        ticks.finish();
        runtimes.forEach(Threadline::close);
        ticks.shutdownNow();
    }

    @Test
    void aSubmitOfASecondRuntimeGetsInWhileTheFirstRunsTurnsBackToBack() throws Exception {
        Threadline busy = runtime(LINGER);
        Threadline waiting = runtime(Duration.ZERO); // it lets the session go as soon as its command ends
        busy.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Session mine = busy.defaultTenant().open("s1");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger turns = new AtomicInteger();
        Semaphore turnEnded = new Semaphore(0);
        Future<?> backToBack = loop.submit(() -> {
            while (!stop.get()) {
                mine.submit("busy " + turns.incrementAndGet());
                turnEnded.release();
            }
            return null;
        });
        awaitTurns(turnEnded, 1);
        assertThat(store.lease(Engines.key("s1"))).as("the busy runtime holds the session").isPresent();

        CompletableFuture<TurnResult> other = waiting.defaultTenant().open("s1").async().submit("from the other process");
        ticks.awaitDueWithin(Duration.ofMillis(50)); // it found the session held and sleeps until its next try
        // The busy runtime holds the lease past one ttl, its commands back to back; each of these moves
        // leaves it more than a tenth of its lease, which a command begun after the move renews.
        Duration step = TTL.multipliedBy(7).dividedBy(20);
        for (int i = 0; i < 2; i++) {
            clock.advance(step);
            turnEnded.drainPermits();
            awaitTurns(turnEnded, 2); // the second of them began after the move
        }
        assertThat(store.lease(Engines.key("s1"))).as("held for less than a ttl, the busy runtime keeps the lease").isPresent();
        assertThat(other).isNotDone();
        clock.advance(step); // now it has held the lease longer than a ttl
        // Without the yield the busy runtime never lets go, nothing is scheduled, and this fails.
        ticks.awaitScheduled("the busy runtime's yield", d -> d.compareTo(Duration.ofMillis(50)) > 0);
        assertThat(store.lease(Engines.key("s1"))).as("the busy runtime gave the lease up").isEmpty();
        assertThat(other).isNotDone();

        ticks.advance(Duration.ofMillis(10)); // the waiting runtime's next try, well within the yield
        TurnResult r = other.get(30, TimeUnit.SECONDS);
        int turnsBefore = turns.get();
        stop.set(true);
        ticks.advance(LeaseTimes.yieldFor(TTL)); // the yield is over: the busy runtime takes the session back
        backToBack.get(30, TimeUnit.SECONDS);

        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(r.reply()).isEqualTo("ack from the other process");
        assertThat(turnsBefore).as("the busy runtime ran turns meanwhile").isPositive();
        assertThat(waiting.defaultTenant().open("s1").state().messages()).extracting(m -> m.text())
                .contains("from the other process", "ack from the other process", "busy 1", "ack busy 1");
    }

    private static void awaitTurns(Semaphore turnEnded, int n) throws InterruptedException {
        assertThat(turnEnded.tryAcquire(n, 30, TimeUnit.SECONDS)).as("the busy runtime ended %d more turns", n).isTrue();
    }

    @Test
    void theYieldIsATenthOfTheTtlBetween4And100Ms() {
        assertThat(dev.threadline.core.internal.engine.live.LeaseTimes.yieldFor(Duration.ofSeconds(15))).isEqualTo(Duration.ofMillis(100));
        assertThat(dev.threadline.core.internal.engine.live.LeaseTimes.yieldFor(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(50));
        assertThat(dev.threadline.core.internal.engine.live.LeaseTimes.yieldFor(Duration.ofMillis(40))).isEqualTo(Duration.ofMillis(4));
    }
}
