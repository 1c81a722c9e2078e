package dev.threadline.core.runtime;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.PriceTable;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Usage;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each model reply is recorded with its cost at the operator's prices, summed per turn and per session, kept across a reload. */
class PricedTurnsTest {
    private static final PriceTable PRICES = PriceTable.parse(Json.parse(
            "{\"scripted\": {\"input\": 3, \"output\": 15}, \"scr*\": {\"input\": 1, \"output\": 1}, \"openai:*\": {\"input\": 2.5,"
                    + " \"output\": 10, \"cacheRead\": 1.25}}", "prices"));

    private Threadline runtime(InMemoryStateStore store, PriceTable prices) {
        return Threadline.builder().store(store).prices(prices)
                .model(ScriptedModel.replies(toolCall("t1", "echo", "{\"text\":\"hi\"}"), text("done"), text("again")))
                .skills(List.of(TestSkills.echo())).build();
    }

    @Test
    void aTurnCostsWhatItsRepliesCostAtTheTablesPrices() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = runtime(store, PRICES)) {
            Session s = tl.defaultTenant().create("p1", SessionConfig.DEFAULT);
            TurnResult r = s.submit("say hi");
            long perCall = 3 * 10 + 15 * 5; // Usage.of(10, 5) per reply, prices per million tokens = micros per token
            assertThat(r.usage().costMicros()).isEqualTo(2 * perCall);
            assertThat(s.state().usage().costMicros()).isEqualTo(2 * perCall);
            List<Usage> recorded = s.history().journal().stream()
                    .filter(e -> e.event() instanceof Event.AssistantMessageReceived)
                    .map(e -> ((Event.AssistantMessageReceived) e.event()).message().usage()).toList();
            assertThat(recorded).containsExactly(Usage.of(10, 5).withCostMicros(perCall), Usage.of(10, 5).withCostMicros(perCall));
            assertThat(s.history().stateAt(s.state().seq()).usage().costMicros()).as("folded again from the stored journal")
                    .isEqualTo(2 * perCall);
        }
    }

    @Test
    void anUnpricedReplyStoresNoCost() {
        assertThat(Json.write(Usage.of(10, 5))).doesNotContain("cost");
        assertThat(Json.write(Usage.of(10, 5).withCostMicros(7))).contains("\"costMicros\":7");
        assertThat(Json.read("{\"inputTokens\":1,\"outputTokens\":2,\"cacheReadTokens\":0,\"cacheWriteTokens\":0}", Usage.class))
                .isEqualTo(Usage.of(1, 2));
    }

    @Test
    void aModelIsPricedByItsSpecElseTheLongestPattern() {
        assertThat(PRICES.priceOf("scripted").orElseThrow().input()).isEqualByComparingTo("3");
        assertThat(PRICES.priceOf("scripted-2").orElseThrow().input()).isEqualByComparingTo("1");
        assertThat(PRICES.priceOf("openai:gpt-4o").orElseThrow().cacheWrite()).as("cache prices default to input")
                .isEqualByComparingTo("2.5");
        assertThat(PRICES.priceOf("anthropic:claude")).isEmpty();
        assertThat(PRICES.priced("openai:gpt-4o", new Usage(1_000_000, 100_000, 400_000, 0)).costMicros())
                .as("2.5 + 1.0 + 0.5 currency units").isEqualTo(4_000_000);
        assertThat(new PriceTable.Price(new BigDecimal("0.15"), BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO)
                .costMicros(Usage.of(3, 0))).as("0.45 micros rounds to 0").isZero();
    }

    @Test
    void aBadTableIsRefusedNamingTheModelAndField() {
        assertThatThrownBy(() -> PriceTable.parse(Json.parse("{\"m\": {\"input\": 1}}", "p")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("prices.m.output");
        assertThatThrownBy(() -> PriceTable.parse(Json.parse("{\"m\": {\"input\": -1, \"output\": 1}}", "p")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("prices.m.input");
        assertThatThrownBy(() -> PriceTable.parse(Json.parse("{\"m\": {\"input\": 1, \"output\": 1, \"per\": 2}}", "p")))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("prices.m.per");
        assertThatThrownBy(() -> PriceTable.parse(Json.parse("[1]", "p"))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("prices");
    }
}
