package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.testkit.RawSteps;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.state.State;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bug behind the PostgreSQL benchmark's one "redecided" step in ~10,000: a session driven step by
 * step (the benchmark's raw steps, a caller recording tool results itself) sat idle mid-turn past the
 * lease linger, the ticker released the lease, and the next step re-acquired it as a fresh
 * acquisition, which {@link CommandGate} took for a take-over from a stopped process: it closed the
 * runtime's own running turn as abandoned (the pending tool call failed with the crash reason, then
 * TurnInterrupted), so the step's decider found a tool result already there (the benchmark counted
 * that and wrote nothing; any other caller's tool result was refused). Re-taking a lease no other
 * process held since this runtime released it is no take-over. Also: the ticker's release raced a
 * new command's acquisition (the release went out after the session's holder was already retired),
 * so the release could clear the lease the new command had just re-taken.
 */
class TurnClosedAsAbandonedAfterLeaseRelinquishTest {
    /** Past the lease ticker's first run (every quarter of the default 15 s ttl), short of its second. */
    private static final Duration ONE_TICK = Duration.ofSeconds(4);
    private final TestClock clock = new TestClock();
    private final ManualScheduler ticks = new ManualScheduler(clock);
    private final List<Threadline> runtimes = new ArrayList<>();

    @AfterEach
    void close() {
        ticks.finish();
        runtimes.forEach(Threadline::close);
        ticks.shutdownNow();
    }

    @Test
    void aTurnDrivenStepByStepStaysOpenWhenTheRuntimeReTakesItsOwnReleasedLease() {
        StateStore store = new InMemoryStateStore(clock);
        Threadline tl = runtime(store, Duration.ofMillis(50));
        Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
        SessionKey key = SessionKey.of(s.info());
        RawSteps.update(s, st -> List.of(new Event.UserMessageReceived(Message.user("add 2 and 3"))));
        RawSteps.update(s, st -> toolCall("t1"));

        ticks.advance(ONE_TICK); // idle past the linger: the tick lets the lease go
        assertThat(store.lease(key)).as("the idle session's lease was released").isEmpty();

        List<State> seen = new ArrayList<>();
        RawSteps.update(s, st -> {
            seen.add(st);
            return List.of(new Event.ToolCallCompleted("t1", "5", false));
        });

        assertThat(seen).as("one decision, on a state with the call still pending").hasSize(1);
        assertThat(seen.get(0).pending()).extracting(p -> p.toolUseId()).containsExactly("t1");
        assertThat(types(s.history().journal())).as("nothing closed the turn").doesNotContain("ToolCallFailed", "TurnInterrupted");
        assertThat(s.state().pending()).isEmpty();
        assertThat(s.state().messages()).hasSize(3);
    }

    @Test
    void withNoLingerEveryStepReleasesAndTheTurnStillStaysOpen() {
        StateStore store = new InMemoryStateStore(clock);
        Threadline tl = runtime(store, Duration.ZERO);
        Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
        RawSteps.update(s, st -> List.of(new Event.UserMessageReceived(Message.user("add 2 and 3"))));
        RawSteps.update(s, st -> toolCall("t1"));
        RawSteps.update(s, st -> List.of(new Event.ToolCallCompleted("t1", "5", false)));
        RawSteps.update(s, st -> List.of(new Event.AssistantMessageReceived(Message.assistant(
                List.of(new ContentBlock.Text("5")), StopReason.END_TURN, Usage.of(10, 1))), new Event.TurnCompleted("end_turn")));

        assertThat(types(s.history().journal())).doesNotContain("ToolCallFailed", "TurnInterrupted").contains("TurnCompleted");
        assertThat(s.state().messages()).hasSize(4);
    }

    @Test
    void aTurnLeftOpenIsStillClosedWhenAnotherOwnerHeldTheLeaseMeanwhile() {
        StateStore store = new InMemoryStateStore(clock);
        Threadline tl = runtime(store, Duration.ofMillis(50));
        Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
        SessionKey key = SessionKey.of(s.info());
        RawSteps.update(s, st -> List.of(new Event.UserMessageReceived(Message.user("add 2 and 3"))));
        RawSteps.update(s, st -> toolCall("t1"));
        ticks.advance(ONE_TICK);
        // another process takes the session and lets it go without finishing the turn
        Lease other = ((LeaseResult.Acquired) store.acquire(key, "elsewhere/1/1/x", Duration.ofSeconds(5), null)).lease();
        store.release(other);

        RawSteps.update(s, st -> List.of());

        assertThat(types(s.history().journal())).as("the take-over closes the turn it found open").contains("ToolCallFailed", "TurnInterrupted");
        assertThat(s.state().isIdle()).isTrue();
    }

    @Test
    void theTickersReleaseDoesNotClearALeaseACommandReTookMeanwhile() throws Exception {
        CountDownLatch releasing = new CountDownLatch(1);
        CountDownLatch letRelease = new CountDownLatch(1);
        AtomicBoolean acquiredDuringRelease = new AtomicBoolean();
        AtomicBoolean inRelease = new AtomicBoolean();
        AtomicBoolean hold = new AtomicBoolean();
        StateStore store = new ForwardingStore(new InMemoryStateStore(clock)) {
            @Override
            public void release(Lease lease) {
                if (hold.get()) {
                    inRelease.set(true);
                    releasing.countDown();
                    await(letRelease);
                }
                super.release(lease);
                inRelease.set(false);
            }

            @Override
            public LeaseResult acquire(SessionKey k, String owner, Duration ttl, String deadHolder) {
                if (inRelease.get()) {
                    acquiredDuringRelease.set(true);
                    letRelease.countDown(); // the old order: let the release go on after this acquisition
                }
                return super.acquire(k, owner, ttl, deadHolder);
            }
        };
        Threadline tl = runtime(store, Duration.ofMillis(50));
        Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
        SessionKey key = SessionKey.of(s.info());
        RawSteps.update(s, st -> List.of(new Event.UserMessageReceived(Message.user("hello"))));
        hold.set(true);
        Thread ticker = Thread.ofPlatform().start(() -> ticks.advance(ONE_TICK));
        assertThat(releasing.await(30, TimeUnit.SECONDS)).as("the ticker began releasing").isTrue();

        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread step = Thread.ofPlatform().start(() -> {
            try {
                RawSteps.update(s, st -> List.of(new Event.AssistantMessageReceived(Message.assistant(
                        List.of(new ContentBlock.Text("hi")), StopReason.END_TURN, Usage.of(10, 1))), new Event.TurnCompleted("end_turn")));
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        // either the step acquires while the release is still out (the race), or it waits for the release
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!acquiredDuringRelease.get() && step.getState() != Thread.State.BLOCKED && step.isAlive()
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        hold.set(false);
        letRelease.countDown();
        ticker.join(TimeUnit.SECONDS.toMillis(30));
        step.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(failed.get()).isNull();
        assertThat(acquiredDuringRelease).as("a command acquired while the ticker's release was still out").isFalse();
        assertThat(store.lease(key)).as("the lease the step took is still held in the store").isPresent()
                .get().extracting(Lease::epoch).isEqualTo(2L);
        assertThat(types(s.history().journal())).doesNotContain("TurnInterrupted").contains("TurnCompleted");
    }

    private Threadline runtime(StateStore store, Duration linger) {
        Threadline tl = Threadline.builder().store(store).clock(clock).scheduler(ticks).leaseLinger(linger).build();
        runtimes.add(tl);
        return tl;
    }

    private static List<Event> toolCall(String id) {
        return List.of(new Event.AssistantMessageReceived(Message.assistant(
                List.of(new ContentBlock.ToolUse(id, "add", Json.parse("{\"a\":2,\"b\":3}", "input"))), StopReason.TOOL_USE,
                Usage.of(10, 1))), new Event.ToolCallStarted(id, "add"));
    }

    private static List<String> types(List<StoredEvent> journal) {
        return journal.stream().map(e -> e.event().getClass().getSimpleName()).toList();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("timed out waiting in the test store's release");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
