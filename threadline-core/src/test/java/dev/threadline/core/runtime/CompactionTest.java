package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.context.Views;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.Usage;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Compaction in the loop (auto-compact), on demand (Session.compact), and the context report. */
class CompactionTest {
    private static final String LONG = " and some more words to fill the window".repeat(8);

    private static Threadline runtime(ChatModel model) {
        return Threadline.builder().store(new InMemoryStateStore()).model(model).build();
    }

    private static List<StoredEvent> compactions(Session s) {
        return s.history().journal().stream().filter(e -> e.event() instanceof Event.ContextCompacted).toList();
    }

    @Test
    void autoCompactSummarisesOlderTurnsBeforeTheModelCallAndTheTurnGoesOn() {
        ScriptedModel model = ScriptedModel.of(r -> ScriptedModel.text("ok" + LONG)).withContextWindow(1_200).recording();
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withMaxOutputTokens(64));
            TurnResult last = null;
            for (int i = 0; i < 12; i++) {
                last = s.submit("question " + i + LONG);
                assertThat(last.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            }
            List<StoredEvent> compactions = compactions(s);
            assertThat(compactions).isNotEmpty().allSatisfy(e -> assertThat(e.source()).isEqualTo(CheckpointSource.LOOP));
            Event.ContextCompacted c = (Event.ContextCompacted) compactions.getLast().event();
            assertThat(c.usage()).isNotNull();
            assertThat(s.state().usage()).isEqualTo(s.state().messages().stream().map(Message::usage)
                    .filter(java.util.Objects::nonNull).reduce(Usage.ZERO, Usage::plus)
                    .plus(compactions.stream().map(e -> ((Event.ContextCompacted) e.event()).usage()).reduce(Usage.ZERO, Usage::plus)));
            for (ChatRequest r : model.requests()) {
                assertThat(model.countTokens(r)).isEmpty();
                if (!SummaryPrompt.isSummaryRequest(r)) {
                    assertThat(Views.LIMITS.counter().count(r)).isLessThanOrEqualTo(1_200 - 64);
                }
            }
            assertThat(s.state().messages()).hasSize(24);
            assertThat(s.context().omitted()).isPositive();
        }
    }

    @Test
    void compactOnDemandSummarisesEverythingAsAnEditStepAndKeepsTheJournal() {
        ScriptedModel model = ScriptedModel.of(r -> ScriptedModel.text("answer")).recording();
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withContextPolicy(ContextPolicy.full()));
            assertThat(s.compact().compacted()).as("nothing to compact yet").isFalse();
            s.submit("first");
            s.submit("second");
            CompactionResult r = s.compact("the questions asked");
            assertThat(r.compacted()).isTrue();
            assertThat(r.summarised()).isEqualTo(4);
            assertThat(r.tokensAfter()).isLessThan(r.tokensBefore() + 200);
            StoredEvent e = compactions(s).getLast();
            assertThat(e.source()).isEqualTo(CheckpointSource.EDIT);
            assertThat(((Event.ContextCompacted) e.event()).boundary()).isEqualTo(4);
            ChatRequest summary = model.requests().getLast();
            assertThat(SummaryPrompt.isSummaryRequest(summary)).isTrue();
            assertThat(summary.messages().getFirst().text()).contains("[user] first").contains("Focus on: the questions asked");
            assertThat(s.compact().compacted()).as("nothing new since").isFalse();

            s.submit("third");
            List<Message> view = model.requests().getLast().messages();
            assertThat(view).hasSize(2);
            assertThat(view.get(0).text()).contains("Summary of 4 earlier lines with 2 user requests");
            assertThat(view.get(1).text()).isEqualTo("third");
            assertThat(s.state().messages()).hasSize(6);
        }
    }

    @Test
    void theProvidersOwnCountDecidesWhenItOffersOne() {
        ScriptedModel scripted = ScriptedModel.of(r -> ScriptedModel.text("ok")).withContextWindow(1_000);
        ChatModel counting = new Delegate(scripted) {
            @Override
            public OptionalLong countTokens(ChatRequest request) {
                return OptionalLong.of(SummaryPrompt.isSummaryRequest(request) ? 100 : 950); // past the 900 threshold
            }
        };
        try (Threadline tl = runtime(counting)) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withMaxOutputTokens(16));
            s.submit("one" + LONG.repeat(4));
            assertThat(compactions(s)).isEmpty(); // only one turn: nothing older to summarise
            s.submit("two" + LONG.repeat(4)); // locally ~530 tokens, under the threshold; the provider says 950
            assertThat(compactions(s)).hasSize(1);
            ContextReport report = s.context();
            assertThat(report.exact()).isTrue();
            assertThat(report.tokens()).isEqualTo(950);
            assertThat(report.counter()).contains("count_tokens");
        }
    }

    @Test
    void aFailedSummaryIsAModelErrorOnlyWhenTheContextNoLongerFits() {
        ScriptedModel scripted = ScriptedModel.of(r -> ScriptedModel.text("ok")).withContextWindow(1_000);
        ChatModel failing = new Delegate(scripted) {
            @Override
            public ChatResponse complete(ChatRequest request) {
                if (SummaryPrompt.isSummaryRequest(request)) {
                    throw new ModelException("summary service down", true);
                }
                return super.complete(request);
            }
        };
        try (Threadline tl = runtime(failing)) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withMaxOutputTokens(16)
                    .withContextPolicy(new ContextPolicy.AutoCompact(0.5, 0.1)));
            for (int i = 0; i < 3; i++) { // past the threshold from the second turn on, yet within the window
                assertThat(s.submit("q" + i + LONG.repeat(4)).outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            }
            assertThat(compactions(s)).isEmpty();
            assertThat(s.context().warning()).contains("past the auto-compact threshold");
            assertThatThrownBy(() -> s.submit("q3" + LONG.repeat(4))).isInstanceOf(ModelException.class)
                    .hasMessageContaining("summary service down");
            assertThat(s.history().journal().getLast().event()).isEqualTo(new Event.TurnInterrupted("model error: summary service down"));
            assertThat(s.state().isIdle()).isTrue();
        }
    }

    @Test
    void theContextReportMeasuresTheNextRequest() {
        try (Threadline tl = runtime(ScriptedModel.of(r -> ScriptedModel.text("fine")))) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withSystemPrompt("Be brief."));
            s.submit("hello");
            ContextReport r = s.context();
            assertThat(r.policy()).isEqualTo(ContextPolicy.autoCompact());
            assertThat(r.messages()).isEqualTo(2);
            assertThat(r.windowTokens()).isEqualTo(200_000);
            assertThat(r.exact()).isFalse();
            assertThat(r.tokens()).isEqualTo(Views.LIMITS.counter().count("Be brief.", List.of(), s.state().messages()));
            assertThat(r.budget()).isEqualTo(180_000);
            assertThat(r.warning()).isNull();
        }
    }

    /** A model that forwards to another; tests override what they need. */
    private static class Delegate implements ChatModel {
        private final ChatModel to;

        Delegate(ChatModel to) {
            this.to = to;
        }

        @Override
        public String name() {
            return "delegate";
        }

        @Override
        public ChatResponse complete(ChatRequest request) {
            return to.complete(request);
        }

        @Override
        public int contextWindowTokens() {
            return to.contextWindowTokens();
        }
    }
}
