package dev.threadline.core.runtime;

import dev.threadline.core.internal.engine.live.LeaseOwner;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.error.LeaseHeldException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two runtimes on one store behave like two processes (each has its own lease owner): one runs a
 * session at a time, reads by the other never write and see the latest state, and a holder that is
 * provably gone is replaced at once. The same contracts across live JVMs are tested in the SQLite module.
 *
 * <p>Both runtimes and the store keep time on one {@link TestClock}, and the runtimes' deadlines (lease
 * waits, the ticker) on one {@link ManualScheduler}: a lease expires, a wait ends and a waiting runtime
 * tries again only when the test moves time, so nothing here depends on how fast the machine is, and
 * nothing waits for real time to pass (the waits for a turn are safety nets).
 */
class LeasesTest {
    private final TestClock clock = new TestClock();
    private final ManualScheduler ticks = new ManualScheduler(clock);
    private final StateStore store = new InMemoryStateStore(clock);
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Threadline> runtimes = new ArrayList<>();

    private Threadline runtime(Duration wait) {
        Threadline tl = Threadline.builder().store(store).clock(clock).scheduler(ticks).model(TestSkills.gateModel())
                .skill(TestSkills.gate(entered, release)).leaseWait(wait).leaseLinger(Duration.ZERO).build();
        runtimes.add(tl);
        return tl;
    }

    @AfterEach
    void close() {
        release.countDown();
        ticks.finish();
        runtimes.forEach(Threadline::close);
        ticks.shutdownNow();
    }

    private CompletableFuture<TurnResult> turnHeldAtTheGate(Threadline a) throws InterruptedException {
        CompletableFuture<TurnResult> turn = a.defaultTenant().open("s1").async().submit("gate");
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the turn reached the gate").isTrue();
        return turn;
    }

    @Test
    void readsByASecondRuntimeDuringATurnWriteNothingAndSeeTheTurnRunning() throws Exception {
        Threadline a = runtime(Duration.ofSeconds(30));
        Threadline b = runtime(Duration.ZERO);
        a.defaultTenant().create("s1", SessionConfig.DEFAULT);
        CompletableFuture<TurnResult> turn = turnHeldAtTheGate(a);
        List<StoredEvent> before = a.defaultTenant().open("s1").history().journal();

        Session seen = b.defaultTenant().open("s1");
        State s = seen.state();
        seen.history().checkpoints();
        seen.history().checkpoints(PageRequest.before(Long.MAX_VALUE, 5));
        seen.history().journal();
        b.defaultTenant().sessions();
        assertThat(s.isIdle()).isFalse();
        assertThat(s.pending()).singleElement().satisfies(p -> assertThat(p.name()).isEqualTo("gate"));
        assertThat(seen.history().journal()).isEqualTo(before);

        release.countDown();
        TurnResult r = turn.get(30, TimeUnit.SECONDS);
        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        assertThat(r.reply()).isEqualTo("done: passed");
        assertThat(a.defaultTenant().open("s1").history().journal()).noneMatch(e -> e.event() instanceof Event.TurnInterrupted);
    }

    @Test
    void aSubmitFromASecondRuntimeDuringATurnSaysWhoHoldsTheSessionAndWritesNothing() throws Exception {
        Threadline a = runtime(Duration.ofSeconds(30));
        Threadline b = runtime(Duration.ZERO);
        a.defaultTenant().create("s1", SessionConfig.DEFAULT);
        CompletableFuture<TurnResult> turn = turnHeldAtTheGate(a);
        long head = store.head(Engines.key("s1"));

        assertThatThrownBy(() -> b.defaultTenant().open("s1").submit("hello"))
                .isInstanceOf(LeaseHeldException.class)
                .hasMessageContaining("session 's1' is held by process " + ProcessHandle.current().pid() + " on host")
                .hasMessageContaining("until 20");
        assertThat(store.head(Engines.key("s1"))).isEqualTo(head);
        release.countDown();
        turn.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aSubmitFromASecondRuntimeDuringATurnQueuesBehindTheLease() throws Exception {
        Threadline a = runtime(Duration.ofSeconds(30));
        Threadline b = runtime(Duration.ofSeconds(30));
        a.defaultTenant().create("s1", SessionConfig.DEFAULT);
        CompletableFuture<TurnResult> turn = turnHeldAtTheGate(a);

        CompletableFuture<TurnResult> queued = b.defaultTenant().open("s1").async().submit("after");
        ticks.awaitDueWithin(Duration.ofMillis(50)); // b found the lease held and sleeps until its next try
        ticks.advance(Duration.ofSeconds(1));
        ticks.awaitDueWithin(Duration.ofMillis(50)); // a second of tries later, b still waits
        assertThat(queued).isNotDone();
        release.countDown();

        assertThat(turn.get(30, TimeUnit.SECONDS).reply()).isEqualTo("done: passed"); // a released the lease as it ended
        ticks.advance(Duration.ofMillis(50)); // b's next try (it polls at least every 50 ms) takes it
        assertThat(queued.get(30, TimeUnit.SECONDS).reply()).isEqualTo("ack after");
        State end = b.defaultTenant().open("s1").state();
        assertThat(end.messages()).extracting(m -> m.text()).containsSubsequence("gate", "done: passed", "after", "ack after");
        assertThat(TranscriptValidator.violations(end.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void aRuntimesStateCatchesUpWithWhatAnotherRuntimeWrote() {
        Threadline one = runtime(Duration.ofSeconds(5));
        Threadline two = runtime(Duration.ofSeconds(5));
        Session s1 = one.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Engines.update(s1, Counters.INCREMENT);
        assertThat(Counters.value(s1.state())).isEqualTo(1);

        Engines.update(two.defaultTenant().open("s1"), st -> List.of(new Event.VariablesChanged(VariableScope.SESSION,
                Map.of("x", TextNode.valueOf("from two")), List.of())));

        State seen = s1.state();
        assertThat(seen.variable("x")).isEqualTo(TextNode.valueOf("from two"));
        assertThat(seen.seq()).isEqualTo(s1.history().journal().size());
        Engines.update(s1, Counters.INCREMENT);
        assertThat(Counters.value(two.defaultTenant().open("s1").state())).isEqualTo(2);
    }

    @Test
    void aRuntimeThatLostARaceCatchesUpAndGoesOn() throws Exception {
        Threadline one = runtime(Duration.ofSeconds(5));
        Threadline two = runtime(Duration.ofSeconds(5));
        Session mine = one.defaultTenant().openOrCreate("s1", SessionConfig.DEFAULT);
        Session theirs = two.defaultTenant().openOrCreate("s1", SessionConfig.DEFAULT);
        mine.state(); // cached in runtime one
        release.countDown();
        assertThat(theirs.submit("gate").reply()).isEqualTo("done: passed");

        TurnResult next = mine.submit("next");

        assertThat(next.reply()).isEqualTo("ack next");
        assertThat(mine.state().messages()).extracting(m -> m.text()).containsExactly("gate", "", "", "done: passed", "next", "ack next");
    }

    @Test
    void openOrCreateIsAtomicAcrossRuntimes() throws Exception {
        Threadline one = runtime(Duration.ofSeconds(5));
        Threadline two = runtime(Duration.ofSeconds(5));
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Session>> opened = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                Threadline tl = i % 2 == 0 ? one : two;
                opened.add(pool.submit(() -> {
                    go.await();
                    return tl.defaultTenant().openOrCreate("new", SessionConfig.DEFAULT);
                }));
            }
            go.countDown();
            for (Future<Session> f : opened) {
                assertThat(f.get(30, TimeUnit.SECONDS).id()).isEqualTo("new");
            }
        }
        assertThat(one.defaultTenant().open("new").history().journal()).singleElement()
                .satisfies(e -> assertThat(e.event()).isInstanceOf(Event.SessionCreated.class));
    }

    @Test
    void aLeaseHeldByAProcessOfThisHostThatNoLongerRunsIsTakenAtOnce() throws Exception {
        Threadline a = runtime(Duration.ZERO);
        Session s = a.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long start = gone.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
        LeaseOwner self = LeaseOwner.current();
        String deadOwner = new LeaseOwner(self.host(), gone.pid(), start, "deadbeef").id();
        assertThat(store.acquire(Engines.key("s1"), deadOwner, Duration.ofHours(1), null)).isInstanceOf(LeaseResult.Acquired.class);

        Engines.update(s, Counters.INCREMENT); // no waiting for the hour-long lease: its holder is provably gone

        assertThat(Counters.value(s.state())).isEqualTo(1);
        // the dead owner's lease was epoch 1, ours 2 (released after the command): the next taker gets 3
        assertThat(store.acquire(Engines.key("s1"), "probe", Duration.ofSeconds(1), null))
                .isInstanceOfSatisfying(LeaseResult.Acquired.class, acq -> assertThat(acq.lease().epoch()).isEqualTo(3));
    }

    @Test
    void aLeaseOfALiveProcessOfThisHostIsWaitedFor() throws Exception {
        Threadline a = runtime(Duration.ZERO);
        Session s = a.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Process alive = new ProcessBuilder("cat").start(); // waits on its stdin until we close it
        try {
            long start = alive.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
            String owner = new LeaseOwner(LeaseOwner.current().host(), alive.pid(), start, "cafe0001").id();
            store.acquire(Engines.key("s1"), owner, Duration.ofHours(1), null);

            assertThatThrownBy(() -> Engines.update(s, Counters.INCREMENT)).isInstanceOf(LeaseHeldException.class)
                    .hasMessageContaining("process " + alive.pid());
            assertThat(Counters.value(s.state())).isZero();
        } finally {
            alive.destroyForcibly();
        }
    }
}
