package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retention ({@link Threadline#sweep}) on the in-memory store, time driven by a test clock: what has
 * expired goes, oldest first and at most the limit per pass; a leased session stays whatever its
 * expiry; a parent stays while a live branch depends on it, and goes with its expired branches.
 */
class RetentionTest {
    private final TestClock clock = new TestClock();
    private final StateStore store = new InMemoryStateStore(clock);
    private final Threadline tl = Threadline.builder().store(store).clock(clock).model(ScriptedModel.demo()).build();

    @AfterEach
    void close() {
        tl.close();
    }

    private Session create(String id, Duration ttl) {
        return tl.defaultTenant().create(new NewSession(id, null, SessionConfig.DEFAULT, Map.of(), ttl));
    }

    private List<String> left() {
        return tl.defaultTenant().sessions().items().stream().map(s -> s.info().id()).sorted().toList();
    }

    @Test
    void aPassRemovesWhatHasExpiredOldestFirstAndAtMostTheLimit() {
        create("keep-forever", null);
        create("late", Duration.ofHours(3));
        create("first", Duration.ofHours(1));
        create("second", Duration.ofHours(2));

        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(0, 0, 0));
        clock.advance(Duration.ofHours(2).plusMinutes(1));

        assertThat(tl.sweep(1)).isEqualTo(new SweepResult(1, 0, 0));
        assertThat(left()).containsExactly("keep-forever", "late", "second");
        SweepResult next = tl.sweep(10);
        assertThat(next.removed()).isEqualTo(1);
        assertThat(next.examined()).isEqualTo(1);
        assertThat(left()).containsExactly("keep-forever", "late");
        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(0, 0, 0));
    }

    @Test
    void aSessionWhoseLeaseIsHeldIsKeptWhateverItsExpiryAndGoesOnceTheLeaseIsGone() {
        create("busy", Duration.ofMinutes(1));
        LeaseResult held = store.acquire(Engines.key("busy"), "another-process", Duration.ofMinutes(10), null);
        assertThat(held).isInstanceOf(LeaseResult.Acquired.class);
        clock.advance(Duration.ofMinutes(5));

        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(0, 1, 0));
        assertThat(left()).containsExactly("busy");

        clock.advance(Duration.ofMinutes(6)); // the holder is gone: its lease expired
        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0));
        assertThat(left()).isEmpty();
    }

    @Test
    void aSessionRunningATurnIsNeverSweptMidTurn() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Threadline runner = Threadline.builder().store(store).clock(clock).model(TestSkills.gateModel())
                .skill(TestSkills.gate(entered, release)).leaseLinger(Duration.ZERO).build();
        runner.defaultTenant().create(new NewSession("turning", null, SessionConfig.DEFAULT, Map.of(), Duration.ofMillis(1)));
        CompletableFuture<TurnResult> turn = runner.defaultTenant().open("turning").async().submit("gate");
        try {
            assertThat(entered.await(30, TimeUnit.SECONDS)).as("the turn reached the gate").isTrue();
            clock.advance(Duration.ofSeconds(1)); // past the session's expiry, well within the turn's lease

            assertThat(tl.sweep(10)).isEqualTo(new SweepResult(0, 1, 0));
            assertThat(runner.sweep(10)).as("nor by the runtime running it").isEqualTo(new SweepResult(0, 1, 0));
        } finally {
            release.countDown();
        }
        assertThat(turn.get(30, TimeUnit.SECONDS).reply()).startsWith("done: passed");
        clock.advance(Duration.ofMinutes(1)); // whatever lease is left has expired by now
        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0));
        assertThat(left()).isEmpty();
        runner.close();
    }

    @Test
    void aParentIsKeptWhileALiveBranchDependsOnItAndExpiredBranchesGoFirst() {
        Session parent = create("parent", Duration.ofHours(1));
        parent.submit("hello");
        long at = parent.state().seq();
        parent.fork(at, "expired-fork"); // a branch copies its parent's expiry
        SessionInfo info = store.session(Engines.key("parent")).orElseThrow();
        SessionInfo live = new SessionInfo("live-fork", info.tenant(), info.userId(), info.config(), Map.of(), clock.instant(),
                null, "parent", at);
        store.create(live, List.of(new StoredEvent("live-fork", at + 1, 1, clock.instant(), "c1", CheckpointSource.LOOP,
                Engines.user("mine"))));
        clock.advance(Duration.ofHours(2));

        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 1));
        assertThat(left()).containsExactly("live-fork", "parent");

        store.delete(Engines.key("live-fork"));
        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(1, 0, 0));
        assertThat(left()).isEmpty();
    }

    @Test
    void aParentAndItsExpiredBranchesGoInOnePassChildrenFirst() {
        Session parent = create("a-parent", Duration.ofHours(1));
        parent.submit("hello");
        parent.fork(parent.state().seq(), "z-child").fork(parent.state().seq(), "z-grandchild");
        clock.advance(Duration.ofHours(2));

        assertThat(tl.sweep(10)).isEqualTo(new SweepResult(3, 0, 0));
        assertThat(left()).isEmpty();
    }

    @Test
    void aLimitOutsideOneToAThousandIsRefused() {
        assertThatThrownBy(() -> tl.sweep(0)).isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> tl.sweep(1001)).isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
    }
}
