package dev.threadline.core.runtime;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.PriceTable;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.state.Budget;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A session's budget: a turn that reaches it suspends durably before its next model call with status
 * {@code budget_exceeded}; raising the budget continues it (from another runtime on the same store too); too
 * small a raise is refused writing nothing; the budget survives snapshots and reloads. Every scripted reply
 * uses 15 tokens (10 in, 5 out).
 */
class SessionBudgetTest {
    private static Threadline runtime(InMemoryStateStore store, ChatModel model) {
        return Threadline.builder().store(store).model(model).skills(List.of(TestSkills.echo())).snapshotEvery(1)
                .leaseLinger(Duration.ZERO).prices(PriceTable.parse(Json.parse("{\"scripted\": {\"input\": 1, \"output\": 2}}", "p")))
                .build();
    }

    private static ChatModel model() {
        return ScriptedModel.replies(toolCall("t1", "echo", "{\"text\":\"hi\"}"), text("done"), toolCall("t2", "echo",
                "{\"text\":\"again\"}"), text("done again"), text("third"));
    }

    @Test
    void aTurnThatReachesTheBudgetSuspendsAndARaiseFromAnotherRuntimeContinuesIt() {
        InMemoryStateStore store = new InMemoryStateStore();
        Threadline first = runtime(store, model());
        Session s = first.defaultTenant().create("b1", SessionConfig.DEFAULT.withBudget(Budget.ofTokens(45)));
        assertThat(s.submit("one").outcome()).isEqualTo(TurnResult.Outcome.COMPLETED); // 30 tokens
        TurnResult second = s.submit("two"); // its first call brings the session to 45: suspended before the next
        assertThat(second.outcome()).isEqualTo(TurnResult.Outcome.BUDGET_EXCEEDED);
        assertThat(second.reason()).startsWith("budget_exceeded: the session has used 45 tokens").contains("45 tokens");
        assertThat(s.state().status()).isEqualTo(SessionStatus.BUDGET_EXCEEDED);
        assertThat(s.state().pending()).allMatch(p -> p.answered());
        long head = s.state().seq();

        assertThatThrownBy(() -> s.setBudget(Budget.ofTokens(45))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("leaves it no room").hasMessageContaining("nothing was recorded");
        assertThat(s.state().seq()).as("nothing written").isEqualTo(head);

        Threadline other = runtime(store, ScriptedModel.replies(text("done again")));
        Session there = other.defaultTenant().open("b1");
        assertThat(there.state().status()).as("read back from a snapshot").isEqualTo(SessionStatus.BUDGET_EXCEEDED);
        Optional<TurnResult> resumed = there.setBudget(Budget.ofTokens(1_000));
        assertThat(resumed).get().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(r.reply()).isEqualTo("done again");
        });
        assertThat(there.state().isIdle()).isTrue();
        assertThat(there.state().budget()).isEqualTo(Budget.ofTokens(1_000));
        assertThat(there.history().journal()).anyMatch(e -> e.event() instanceof Event.BudgetSet);
        first.close();
        other.close();
    }

    @Test
    void aCostBudgetStopsAtThePricesAndAnIdleRaiseIsRecordedForLaterTurns() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = runtime(store, model())) {
            // a reply costs 10 * 1 + 5 * 2 = 20 micros
            Session s = tl.defaultTenant().create("b2", SessionConfig.DEFAULT.withBudget(new Budget(0, 40)));
            assertThat(s.submit("one").outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(s.state().usage().costMicros()).isEqualTo(40);
            assertThat(s.submit("two").outcome()).as("reached before its first call").isEqualTo(TurnResult.Outcome.BUDGET_EXCEEDED);
            assertThat(s.state().usage().costMicros()).isEqualTo(40);
            assertThat(s.setBudget(Budget.NONE)).as("no limit: the waiting turn runs to its end").get()
                    .satisfies(r -> assertThat(r.reply()).isEqualTo("done again"))
                    .extracting(TurnResult::outcome).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(s.setBudget(Budget.ofTokens(1))).as("idle: recorded, nothing continues").isEmpty();
            assertThat(s.state().budget()).isEqualTo(Budget.ofTokens(1));
            assertThat(s.submit("three").outcome()).isEqualTo(TurnResult.Outcome.BUDGET_EXCEEDED);
            TurnResult superseding = s.submit("four");
            assertThat(superseding.outcome()).as("a new message closes the waiting turn and waits again")
                    .isEqualTo(TurnResult.Outcome.BUDGET_EXCEEDED);
        }
    }

    @Test
    void aBadBudgetIsRefusedNamingTheField() {
        assertThatThrownBy(() -> new Budget(-1, 0)).isInstanceOf(InvalidInputException.class).hasMessageContaining("budget.tokens");
        assertThatThrownBy(() -> Budget.ofCost("1.0000001")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("budget.cost");
        assertThatThrownBy(() -> Budget.ofCost("two")).isInstanceOf(InvalidInputException.class).hasMessageContaining("budget.cost");
        assertThat(Budget.ofCost("2.5")).isEqualTo(new Budget(0, 2_500_000));
    }
}
