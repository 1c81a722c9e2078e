package dev.threadline.core.runtime;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.UndoneEffectsException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Side effects on the timeline: a side_effect skill's calls are journalled with their effect, run once
 * (not again on approval, rewind or reload), carry a stable idempotency key, and going back past them
 * needs an acknowledgement.
 */
class SideEffectsTest {
    private final StateStore store = new InMemoryStateStore();
    private final List<String> keys = new CopyOnWriteArrayList<>();
    private final Threadline tl = Threadline.builder().store(store).model(HumanSkills.model()).skill(pay(keys)).build();

    /** pay {"amount": n}: a side effect, recording the idempotency key of each run. */
    private static TestSkills.Simple pay(List<String> keys) {
        return new TestSkills.Simple("pay", "{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\"}}}") {
            @Override
            public SkillResult execute(ExecutionContext c) {
                keys.add(c.idempotencyKey());
                return SkillResult.ok("paid " + c.arguments().get("amount").asInt());
            }

            @Override
            public SkillPolicy policy() {
                return SkillPolicy.DEFAULT.withEffect(Effect.SIDE_EFFECT);
            }
        };
    }

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void goingBackPastASideEffectIsRefusedWithTheEffectsUnlessAcknowledgedAndNothingRunsAgain() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("hello");
        long before = s.state().seq();
        s.submit("pay 9");
        long after = s.state().seq();

        assertThat(keys).containsExactly("s1/p3");
        assertThat(s.history().journal()).extracting(StoredEvent::event).contains(new Event.ToolCallStarted("p3", "pay", Effect.SIDE_EFFECT));
        assertThat(s.history().sideEffectsAfter(before)).singleElement().satisfies(e -> {
            assertThat(e.toolUseId()).isEqualTo("p3");
            assertThat(e.outcome()).isEqualTo("ok: paid 9");
        });
        assertThat(s.history().sideEffectsAfter(after)).isEmpty();
        int sessions = tl.defaultTenant().sessions().items().size();
        List<StoredEvent> journal = s.history().journal();

        assertThatThrownBy(() -> s.rewind(before)).isInstanceOf(UndoneEffectsException.class)
                .hasMessageContaining("rewind of session 's1' to seq " + before + " cannot undo 1 side effect(s): pay (p3) at seq")
                .hasMessageContaining("ok: paid 9")
                .satisfies(e -> assertThat(((UndoneEffectsException) e).effects()).hasSize(1));
        assertThatThrownBy(() -> s.with(CommandOptions.NONE).fork(before, "f1")).isInstanceOf(UndoneEffectsException.class);
        assertThat(tl.defaultTenant().sessions().items()).hasSize(sessions);
        assertThat(s.history().journal()).isEqualTo(journal);

        Session branch = s.with(CommandOptions.builder().acknowledgeEffects(true).build()).rewind(before);
        assertThat(branch.history().journal()).extracting(StoredEvent::event).filteredOn(Event.BranchCreated.class::isInstance)
                .singleElement().satisfies(e -> assertThat(((Event.BranchCreated) e).reason())
                        .startsWith("rewind (acknowledged 1 side effect(s) it cannot undo: pay (p3)"));
        assertThat(s.fork(after).state().messages()).hasSameSizeAs(s.state().messages());
        Engines.evict(tl, "s1");
        s.state();
        assertThat(keys).as("the call ran once: not again on rewind, fork or reload").hasSize(1);
    }

    @Test
    void anApprovedSideEffectRunsOnceAndIsInTheLedger() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withRequireApproval(List.of("pay")));
        s.submit("pay 4");
        assertThat(s.history().sideEffectsAfter(1)).as("not started yet: no effect").isEmpty();
        s.approve("p1");
        assertThatThrownBy(() -> s.approve("p1")).isInstanceOf(dev.threadline.core.error.InvalidInputException.class);
        assertThat(keys).containsExactly("s1/p1");
        assertThat(s.history().sideEffectsAfter(1)).extracting(SideEffect::name).containsExactly("pay");
    }

    /** pay that can be refunded: records each refund's key and the amount it undoes. */
    private static final class RefundablePay extends TestSkills.Simple implements dev.threadline.core.skill.Compensable {
        final List<String> runs = new CopyOnWriteArrayList<>();
        final List<String> refunds = new CopyOnWriteArrayList<>();

        RefundablePay() {
            super("pay", "{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\"}}}");
        }

        @Override
        public SkillResult execute(ExecutionContext c) {
            runs.add(c.idempotencyKey());
            return SkillResult.ok("paid " + c.arguments().get("amount").asInt());
        }

        @Override
        public SkillPolicy policy() {
            return SkillPolicy.DEFAULT.withEffect(Effect.SIDE_EFFECT);
        }

        @Override
        public SkillResult compensate(ExecutionContext c, String result) {
            refunds.add(c.idempotencyKey() + "/undo " + c.arguments().get("amount").asInt());
            return SkillResult.ok("refunded " + c.arguments().get("amount").asInt());
        }
    }

    @Test
    void compensationsRunNewestFirstOnceEachAreJournalledAndLeaveTheLedger() {
        RefundablePay pay = new RefundablePay();
        try (Threadline t = Threadline.builder().store(new InMemoryStateStore()).model(HumanSkills.model()).skill(pay).build()) {
            Session s = t.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("hello");
            long before = s.state().seq();
            s.submit("pay 2");
            s.submit("pay 3");

            List<SideEffect> done = s.compensate(before);

            assertThat(done).extracting(SideEffect::outcome).containsExactly("ok: refunded 3", "ok: refunded 2");
            assertThat(pay.refunds).containsExactly("s1/p7/undo 3", "s1/p3/undo 2");
            assertThat(s.history().journal()).extracting(StoredEvent::event).filteredOn(Event.EffectCompensated.class::isInstance)
                    .extracting(e -> ((Event.EffectCompensated) e).toolUseId()).containsExactly("p7", "p3");
            assertThat(s.history().sideEffectsAfter(before)).isEmpty();
            assertThat(s.compensate(before)).as("each compensation runs once").isEmpty();
            assertThat(pay.refunds).hasSize(2);
            assertThat(s.rewind(before).state().messages()).hasSize(2); // nothing left to acknowledge
            assertThat(pay.runs).hasSize(2);
        }
    }
}
