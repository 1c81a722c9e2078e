package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.SessionBusyException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Double texting: a second message while a turn runs, with each strategy, in one process and across
 * two runtimes on one store (two processes: the running turn is found through the store and
 * interrupted through its lease). Every transcript stays valid.
 *
 * <p>The runtimes and the store keep time on one {@link TestClock}, their deadlines on one
 * {@link ManualScheduler}: an interrupt another runtime asked for reaches the turn at its runtime's next
 * lease tick, and a waiting command tries the lease again, only as the test moves time on
 * ({@link ManualScheduler#advanceUntil}); nothing waits for real time to pass.
 */
class DoubleTextingTest {
    private final TestClock clock = new TestClock();
    private final ManualScheduler ticks = new ManualScheduler(clock);
    private final StateStore store = new InMemoryStateStore(clock);
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Threadline> runtimes = new ArrayList<>();
    /** How far the test moves time at once: the lease ticker's period here (a quarter of the 200 ms ttl). */
    private static final Duration TICK = Duration.ofMillis(50);

    private Threadline runtime() {
        Threadline tl = Threadline.builder().store(store).clock(clock).scheduler(ticks).model(TestSkills.gateModel())
                .skill(TestSkills.gate(entered, release)).leaseTtl(Duration.ofMillis(200)).leaseWait(Duration.ofSeconds(30)).leaseLinger(Duration.ZERO).build();
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

    /** Session s1 with one finished turn ("hello"), then a turn held at the gate. */
    private CompletableFuture<TurnResult> turnAtTheGate(Threadline a, SessionConfig config) throws InterruptedException {
        Session s = a.defaultTenant().create("s1", config);
        s.submit("hello");
        CompletableFuture<TurnResult> turn = s.async().submit("gate");
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("the turn reached the gate").isTrue();
        return turn;
    }

    private static void assertValid(State s) {
        assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    private void rejects(Threadline a, Threadline b) throws Exception {
        CompletableFuture<TurnResult> turn = turnAtTheGate(a, SessionConfig.DEFAULT);
        Session other = b.defaultTenant().open("s1");
        List<StoredEvent> before = other.history().journal();

        assertThatThrownBy(() -> other.with(CommandOptions.builder().doubleTexting(DoubleTexting.REJECT).build()).submit("second"))
                .isInstanceOf(SessionBusyException.class)
                .hasMessageContaining("busy with the turn for 'gate' (started at seq")
                .hasMessageContaining(a == b ? "running in this process" : "running in process " + ProcessHandle.current().pid());
        assertThat(other.history().journal()).isEqualTo(before);
        release.countDown();
        assertThat(turn.get(30, TimeUnit.SECONDS).reply()).isEqualTo("done: passed");
        assertThat(other.with(CommandOptions.builder().doubleTexting(DoubleTexting.REJECT).build()).submit("second").reply()).as("idle: it runs").isEqualTo("ack second");
    }

    @Test
    void rejectRefusesTheMessageNamingTheRunningTurnInOneProcess() throws Exception {
        Threadline a = runtime();
        rejects(a, a);
    }

    @Test
    void rejectRefusesTheMessageNamingTheProcessThatRunsTheTurn() throws Exception {
        rejects(runtime(), runtime());
    }

    @Test
    void theSessionConfigsStrategyAppliesWhenTheSubmitNamesNone() throws Exception {
        Threadline a = runtime();
        turnAtTheGate(a, SessionConfig.DEFAULT.withDoubleTexting(DoubleTexting.REJECT));
        assertThatThrownBy(() -> a.defaultTenant().open("s1").submit("second")).isInstanceOf(SessionBusyException.class);
    }

    private void interrupts(Threadline a, Threadline b) throws Exception {
        CompletableFuture<TurnResult> turn = turnAtTheGate(a, SessionConfig.DEFAULT);
        TurnResult second = ticks.advanceUntil(b.defaultTenant().open("s1").with(CommandOptions.builder().doubleTexting(DoubleTexting.INTERRUPT)
                .build()).async().submit("second"), TICK);

        TurnResult first = turn.get(30, TimeUnit.SECONDS);
        assertThat(first.outcome()).isEqualTo(TurnResult.Outcome.INTERRUPTED);
        assertThat(first.reason()).contains("double texting: interrupt");
        assertThat(second.reply()).isEqualTo("ack second");
        State st = b.defaultTenant().open("s1").state();
        assertThat(st.messages()).extracting(Message::text).containsSubsequence("hello", "gate", "second", "ack second");
        assertThat(st.messages().get(4).toolResults().get(0).content()).startsWith("error: cancelled");
        assertValid(st);
    }

    @Test
    void interruptEndsTheRunningTurnWithCancelledCallsThenRunsTheMessageInOneProcess() throws Exception {
        Threadline a = runtime();
        interrupts(a, a);
    }

    @Test
    void interruptReachesTheTurnAnotherProcessRunsThroughItsLease() throws Exception {
        interrupts(runtime(), runtime());
    }

    private void rollsBack(Threadline a, Threadline b) throws Exception {
        CompletableFuture<TurnResult> turn = turnAtTheGate(a, SessionConfig.DEFAULT);
        Session s = b.defaultTenant().open("s1");
        TurnResult second = ticks.advanceUntil(s.with(CommandOptions.builder().doubleTexting(DoubleTexting.ROLLBACK).build()).async()
                .submit("instead"), TICK);

        assertThat(turn.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(TurnResult.Outcome.INTERRUPTED);
        assertThat(second.reply()).isEqualTo("ack instead");
        State st = s.state();
        assertThat(st.messages()).extracting(Message::text).containsExactly("hello", "ack hello", "instead", "ack instead");
        assertValid(st);
        Event.TurnRolledBack rb = s.history().journal().stream().map(StoredEvent::event).filter(Event.TurnRolledBack.class::isInstance)
                .map(Event.TurnRolledBack.class::cast).findFirst().orElseThrow();
        Session side = b.defaultTenant().open(rb.sideBranch());
        assertThat(side.state().messages()).extracting(Message::text).containsSubsequence("hello", "ack hello", "gate");
        assertValid(side.state());
        Engines.evict(b, "s1");
        assertThat(s.state()).as("a reload folds the rollback the same way").isEqualTo(st);
        assertThat(s.submit("more").reply()).isEqualTo("ack more");
    }

    @Test
    void rollbackSetsTheRunningTurnAsideOnABranchAndContinuesFromBeforeItInOneProcess() throws Exception {
        Threadline a = runtime();
        rollsBack(a, a);
    }

    @Test
    void rollbackWorksOnATurnAnotherProcessRuns() throws Exception {
        rollsBack(runtime(), runtime());
    }

    @Test
    void enqueueIsTheDefaultAndWaitsForTheTurn() throws Exception {
        Threadline a = runtime();
        CompletableFuture<TurnResult> turn = turnAtTheGate(a, SessionConfig.DEFAULT);
        CompletableFuture<TurnResult> queued = runtime().defaultTenant().open("s1").async().submit("after");
        ticks.awaitDueWithin(TICK); // it waits for the lease
        assertThat(queued).isNotDone();
        release.countDown();
        assertThat(turn.get(30, TimeUnit.SECONDS).reply()).isEqualTo("done: passed");
        assertThat(ticks.advanceUntil(queued, TICK).reply()).isEqualTo("ack after");
    }
}
