package dev.threadline.store.postgres;

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
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.SessionKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL benchmark's one "redecided" step in ~10,000, as the benchmark ran it (notifications
 * off; session "h10" sits mid-turn, a tool call pending, between its bytes and its timed steps): when
 * a lease tick fell in that idle gap past the 50 ms linger, the next step re-took the runtime's own
 * released lease, the runtime took that for a take-over and closed its own running turn (the tool call
 * failed with the crash reason, TurnInterrupted), and the step's decider found a tool result already
 * there. No store conflict was involved. The runtime's part is in threadline-core
 * ({@code TurnClosedAsAbandonedAfterLeaseRelinquishTest}); this runs it on a real server.
 */
class PostgresTurnClosedAsAbandonedAfterLeaseRelinquishTest {
    private final ManualTicks ticks = new ManualTicks();
    private final List<Threadline> runtimes = new ArrayList<>();

    @AfterEach
    void close() {
        runtimes.forEach(Threadline::close);
        ticks.shutdownNow();
    }

    @Test
    void aStepAfterTheLeaseWasReleasedIdleMidTurnIsDecidedOnceAndTheTurnStaysOpen() {
        ShiftedClock clock = new ShiftedClock();
        PostgresStateStore store = store();
        Threadline tl = Threadline.builder().store(store).clock(clock).scheduler(ticks).build(); // linger 50 ms
        runtimes.add(tl);
        Session s = tl.defaultTenant().create("h10", SessionConfig.DEFAULT);
        SessionKey key = SessionKey.of(s.info());
        RawSteps.update(s, st -> List.of(new Event.UserMessageReceived(Message.user("what is (2+3)*7?"))));
        RawSteps.update(s, st -> toolCall("toolu_0"));
        long epoch = store.lease(key).orElseThrow().epoch();

        clock.shift(Duration.ofMillis(300)); // idle past the linger; the tick releases the lease
        ticks.tick();
        assertThat(store.lease(key)).as("released").isEmpty();

        AtomicInteger decisions = new AtomicInteger();
        AtomicReference<Integer> messagesSeen = new AtomicReference<>();
        RawSteps.update(s, st -> {
            decisions.incrementAndGet();
            messagesSeen.set(st.messages().size());
            return List.of(new Event.ToolCallCompleted("toolu_0", "35", false));
        });

        assertThat(decisions).as("decided once").hasValue(1);
        assertThat(messagesSeen.get()).as("on a state without the tool result").isEqualTo(2);
        assertThat(types(s.history().journal())).doesNotContain("ToolCallFailed", "TurnInterrupted").endsWith("ToolCallCompleted");
        Lease now = store.lease(key).orElseThrow();
        assertThat(now.owner()).as("the lease the step re-took is in the store").isNotBlank();
        assertThat(now.epoch()).as("re-taken after the release: the epoch moved on once").isEqualTo(epoch + 1);
    }

    @Test
    void withNoLingerEveryStepReleasesAndReTakesTheLeaseAndTheTurnStillCompletes() {
        PostgresStateStore store = store();
        Threadline tl = Threadline.builder().store(store).scheduler(ticks).leaseLinger(Duration.ZERO).build();
        runtimes.add(tl);
        Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
        SessionKey key = SessionKey.of(s.info());
        RawSteps.update(s, st -> List.of(new Event.UserMessageReceived(Message.user("what is (2+3)*7?"))));
        RawSteps.update(s, st -> toolCall("toolu_0"));
        assertThat(store.lease(key)).as("released at once").isEmpty();
        RawSteps.update(s, st -> List.of(new Event.ToolCallCompleted("toolu_0", "35", false)));
        RawSteps.update(s, st -> List.of(new Event.AssistantMessageReceived(Message.assistant(
                List.of(new ContentBlock.Text("35")), StopReason.END_TURN, Usage.of(10, 1))), new Event.TurnCompleted("end_turn")));

        assertThat(types(s.history().journal())).doesNotContain("ToolCallFailed", "TurnInterrupted").endsWith("TurnCompleted");
        assertThat(s.state().messages()).hasSize(4);
    }

    private static PostgresStateStore store() {
        return PostgresStateStore.open(PgStores.url(), PostgresStateStore.Options.defaults()
                .withSchema(PgStores.freshSchema("relinquish")).withNotifications(false));
    }

    private static List<Event> toolCall(String id) {
        return List.of(new Event.AssistantMessageReceived(Message.assistant(
                List.of(new ContentBlock.ToolUse(id, "calculate", Json.parse("{\"expression\":\"(2+3)*7\"}", "input"))),
                StopReason.TOOL_USE, Usage.of(10, 1))), new Event.ToolCallStarted(id, "calculate"));
    }

    private static List<String> types(List<StoredEvent> journal) {
        return journal.stream().map(e -> e.event().getClass().getSimpleName()).toList();
    }

    /** The system clock plus a shift the test moves, so the runtime sees idle time pass without waiting. */
    private static final class ShiftedClock extends Clock {
        private final AtomicReference<Duration> shift = new AtomicReference<>(Duration.ZERO);

        void shift(Duration d) {
            shift.updateAndGet(s -> s.plus(d));
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(shift.get());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    /** A scheduler whose lease ticker runs only when the test calls {@link #tick()}. */
    private static final class ManualTicks extends ScheduledThreadPoolExecutor {
        private volatile Runnable ticker;

        ManualTicks() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
            ticker = command;
            return super.schedule(() -> { }, 1, TimeUnit.DAYS);
        }

        void tick() {
            ticker.run();
        }
    }
}
