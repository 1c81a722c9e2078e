package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.HistoryPrunedException;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * History pruning on the in-memory store (ADR 0045): a fork's branch point limits a prune and the fork keeps
 * working; a branch is pruned after its own branch point and loads from its base; keep-D by the runtime's
 * clock; a tenant pass; a second prune moves the base on; the reserved tenant is refused.
 */
class HistoryPruningTest {
    private final TestClock clock = new TestClock();
    private final StateStore store = new InMemoryStateStore(clock);
    private final Threadline tl = Threadline.builder().store(store).clock(clock).model(ScriptedModel.demo()).build();
    private final Tenant acme = tl.tenant("acme");

    @AfterEach
    void close() {
        tl.close();
    }

    private Session withTurns(String id, int turns) {
        Session s = acme.create(id, SessionConfig.DEFAULT);
        for (int i = 0; i < turns; i++) {
            s.submit("turn " + i);
            clock.advance(Duration.ofHours(1));
        }
        return s;
    }

    @Test
    void aForkLimitsThePruneAndKeepsWorkingAndABranchIsPrunedAfterItsBranchPoint() {
        Session s = withTurns("s", 10);
        List<Checkpoint> cps = s.history().checkpoints();
        Session fork = s.fork(cps.get(4).seq(), "s-fork");
        for (int i = 0; i < 10; i++) {
            fork.submit("fork turn " + i);
        }

        PruneResult r = tl.lifecycle().prune("acme", "s", PrunePolicy.keepLatest(2));
        assertThat(r.prunedThrough()).isEqualTo(cps.get(4).seq());
        assertThat(r.limitedBy()).contains("branch 's-fork'").contains("seq " + cps.get(4).seq());
        assertThat(fork.history().stateAt(cps.get(4).seq() + 1).seq()).isEqualTo(cps.get(4).seq() + 1);
        assertThat(fork.submit("still there?").reply()).isNotBlank();

        List<Checkpoint> forkCps = fork.history().checkpoints();
        PruneResult f = tl.lifecycle().prune("acme", "s-fork", PrunePolicy.keepLatest(3));
        assertThat(f.prunedThrough()).isEqualTo(forkCps.get(forkCps.size() - 4).seq());
        assertThat(f.eventsRemoved()).isEqualTo(f.prunedThrough() - cps.get(4).seq());
        assertThat(fork.history().checkpoints()).hasSize(3);
        assertThat(fork.state().messages()).as("loaded from the fork's own base (the prune evicted the cached state)")
                .hasSizeGreaterThan(20);
        assertThatThrownBy(() -> fork.history().stateAt(f.prunedThrough() - 1)).isInstanceOf(HistoryPrunedException.class)
                .hasMessageContaining("session 's-fork' seq " + (f.prunedThrough() - 1));
        assertThat(fork.submit("after the prune").reply()).isNotBlank();
        assertThat(s.submit("and the parent").reply()).isNotBlank();
    }

    @Test
    void keepDaysGoesByTheClockAndATenantPassPrunesEverySessionOnce() {
        withTurns("a", 30); // one turn an hour: 30 hours
        withTurns("b", 3);
        PruneSweep pass = tl.lifecycle().pruneTenant("acme", PrunePolicy.keepDays(1));
        assertThat(pass.pruned()).isEqualTo(1);
        assertThat(pass.unchanged()).isEqualTo(1);
        List<Checkpoint> kept = acme.open("a").history().checkpoints();
        assertThat(kept.getFirst().time()).isAfterOrEqualTo(clock.instant().minus(Duration.ofDays(1)));
        assertThat(tl.lifecycle().pruneTenant("acme", PrunePolicy.keepDays(1)).pruned()).as("nothing more to prune").isZero();

        clock.advance(Duration.ofHours(10));
        acme.open("a").submit("later");
        PruneResult moved = tl.lifecycle().prune("acme", "a", PrunePolicy.keepLatest(1));
        assertThat(moved.prunedThrough()).isGreaterThan(kept.getLast().seq() - 1);
        assertThat(acme.open("a").history().checkpoints()).hasSize(1);
        assertThat(store.readOwn(new SessionKey("acme", "a"), 1, store.head(new SessionKey("acme", "a"))).getFirst().seq())
                .isEqualTo(moved.prunedThrough() + 1);
    }

    @Test
    void theReservedTenantAndBadArgumentsAreRefused() {
        assertThatThrownBy(() -> tl.lifecycle().prune(DataLifecycle.RECORDS_TENANT, "data-lifecycle", PrunePolicy.keepLatest(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("threadline.records");
        assertThatThrownBy(() -> PrunePolicy.keepDays(0)).isInstanceOf(InvalidInputException.class).hasMessageContaining("days");
        withTurns("s", 2);
        assertThatThrownBy(() -> tl.lifecycle().prune("acme", "s", null)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no policy of its own");
        assertThatThrownBy(() -> PrunePolicy.parse("many")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(PrunePolicy.METADATA_KEY);
        assertThat(PrunePolicy.parse("30d")).isEqualTo(PrunePolicy.keepDays(30));
    }

    @Test
    void aSessionsOwnPolicyComesBeforeTheTenantsAndAMalformedOneLeavesItAsItIs() {
        for (String[] s : new String[][] {{"own", "2"}, {"bad", "lots"}, {"none", null}}) {
            Session x = acme.create(new NewSession(s[0], null, SessionConfig.DEFAULT,
                    s[1] == null ? java.util.Map.of() : java.util.Map.of(PrunePolicy.METADATA_KEY, s[1]), null));
            for (int i = 0; i < 6; i++) {
                x.submit("turn " + i);
            }
        }
        PruneSweep ownOnly = tl.lifecycle().pruneTenant("acme", null);
        assertThat(ownOnly.pruned()).isEqualTo(1);
        assertThat(ownOnly.unchanged()).isEqualTo(2);
        assertThat(acme.open("own").history().checkpoints()).hasSize(2);

        PruneSweep withDefault = tl.lifecycle().pruneTenant("acme", PrunePolicy.keepLatest(4));
        assertThat(withDefault.pruned()).as("only 'none' takes the tenant's default").isEqualTo(1);
        assertThat(acme.open("none").history().checkpoints()).hasSize(4);
        assertThat(acme.open("own").history().checkpoints()).hasSize(2);
        assertThat(acme.open("bad").history().checkpoints()).hasSizeGreaterThan(4);
        assertThat(tl.lifecycle().prune("acme", "own", null).pruned()).isFalse();
    }
}
