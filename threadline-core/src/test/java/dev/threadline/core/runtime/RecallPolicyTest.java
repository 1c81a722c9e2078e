package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.context.ContextLimits;
import dev.threadline.core.context.ContextRecall;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 38 item 4: with recall on, the door code said in turn 3 and long compacted away comes back into
 * the request the model receives when the user asks about it, after the summary and marked as recalled
 * with its seq; with recall off it does not. The choice is journalled, so a reload folds the same request.
 */
class RecallPolicyTest {
    private static final String LONG = " and some filler words about the weather and the garden".repeat(3);
    private static final String CODE = "remember this: the door code is 4712";

    @Test
    void withRecallOnTheRequestHoldsTheDoorCodeAfterTheSummaryAndAReloadSendsTheSameRequest() {
        ScriptedModel model = ScriptedModel.of(RecallPolicyTest::script).withContextWindow(1_500).recording();
        TestClock clock = new TestClock();
        InMemoryStateStore memory = new InMemoryStateStore(clock);
        ForwardingStore kept = new ForwardingStore(memory) {
            @Override
            public void close() { } // the second runtime reloads from the same store
        };
        SessionConfig config = SessionConfig.DEFAULT.withMaxOutputTokens(64).withRecall(3, 200);
        ChatRequest asked;
        long askedAt;
        try (Threadline tl = Threadline.builder().store(kept).clock(clock).model(model).build()) {
            Session s = tl.defaultTenant().create("long", config);
            talk(s);
            assertThat(model.requests().getLast().messages()).noneMatch(m -> m.text().contains("4712"));

            s.submit("what was the door code?");

            asked = model.requests().getLast();
            List<Message> m = asked.messages();
            assertThat(m.get(0).text()).contains("summarised");
            assertThat(m.get(1).text()).startsWith(ContextRecall.HEADER).contains("[recalled seq ").contains("user] " + CODE);
            assertThat(m).filteredOn(x -> x.text().contains("4712")).hasSize(1);
            assertThat(m.getLast().text()).isEqualTo("what was the door code?");
            assertThat(TranscriptValidator.violations(m, TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();

            List<StoredEvent> journal = s.history().journal();
            StoredEvent recalled = journal.stream().filter(e -> e.event() instanceof Event.ContextRecalled r && !r.messages().isEmpty())
                    .reduce((a, b) -> b).orElseThrow();
            long codeSeq = ((Event.ContextRecalled) recalled.event()).messages().stream()
                    .filter(r -> s.state().messages().get(r.message()).text().equals(CODE)).findFirst().orElseThrow().seq();
            assertThat(m.get(1).text()).contains("[recalled seq " + codeSeq + ", user] " + CODE);
            assertThat(journal).filteredOn(e -> e.seq() == codeSeq).singleElement()
                    .satisfies(e -> assertThat(e.event()).isEqualTo(new Event.UserMessageReceived(Message.user(CODE))));
            askedAt = journal.stream().filter(e -> e.event() instanceof Event.AssistantMessageReceived).reduce((a, b) -> b)
                    .orElseThrow().seq() - 1;
            assertThat(recalled.seq()).isLessThanOrEqualTo(askedAt);
        }
        try (Threadline again = Threadline.builder().store(kept).clock(clock).model(model).build()) {
            Session s = again.defaultTenant().open("long");
            State before = s.history().stateAt(askedAt);
            ContextLimits limits = ContextLimits.of(1_500, 64, "", List.of(), TokenCounter.approximate()).withRecall(config.recall());
            assertThat(config.contextPolicy().view(before, limits).messages()).isEqualTo(asked.messages());
        }
    }

    @Test
    void withRecallOffTheRequestDoesNotHoldIt() {
        ScriptedModel model = ScriptedModel.of(RecallPolicyTest::script).withContextWindow(1_500).recording();
        TestClock clock = new TestClock();
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore(clock)).clock(clock).model(model).build()) {
            Session s = tl.defaultTenant().create("long", SessionConfig.DEFAULT.withMaxOutputTokens(64));
            talk(s);

            s.submit("what was the door code?");

            assertThat(model.requests().getLast().messages()).noneMatch(m -> m.text().contains("4712"))
                    .noneMatch(m -> m.text().startsWith(ContextRecall.HEADER));
            assertThat(s.history().journal()).noneMatch(e -> e.event() instanceof Event.ContextRecalled);
        }
    }

    @Test
    void aRecallSettingOutOfRangeIsRefusedNamingIt() {
        assertThatThrownBy(() -> SessionConfig.DEFAULT.withRecall(0, 200)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("recall.k");
        assertThatThrownBy(() -> SessionConfig.DEFAULT.withRecall(3, 0)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("recall.tokenBudget");
    }

    /** Turn 3 says the code; 300 turns in a 1,500-token window compact it away many times. */
    private static void talk(Session s) {
        for (int i = 0; i < 300; i++) {
            s.submit(i == 3 ? CODE : "turn " + i + LONG);
        }
        assertThat(s.history().journal()).filteredOn(e -> e.event() instanceof Event.ContextCompacted).hasSizeGreaterThan(5);
    }

    private static ChatResponse script(ChatRequest r) {
        return ScriptedModel.text(SummaryPrompt.isSummaryRequest(r) ? "summary of earlier turns" : "ok");
    }
}
