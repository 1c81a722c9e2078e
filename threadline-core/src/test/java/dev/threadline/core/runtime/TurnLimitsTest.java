package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.context.Views;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.TurnResult.Outcome;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The limits of one turn: output limit, refusals, the token budget, the context window, and maxOutputTokens. */
class TurnLimitsTest {
    private final AtomicInteger echoes = new AtomicInteger();

    private Threadline runtime(ScriptedModel model) {
        return Threadline.builder().store(new InMemoryStateStore()).model(model).skill(new TestSkills.Simple("echo",
                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}") {
            @Override
            public dev.threadline.core.skill.SkillResult execute(dev.threadline.core.skill.ExecutionContext c) {
                echoes.incrementAndGet();
                return dev.threadline.core.skill.SkillResult.ok("echo");
            }
        }).build();
    }

    private static List<Event> events(Session s) {
        return s.history().journal().stream().map(StoredEvent::event).toList();
    }

    private static void assertValidAndIdle(Session s) {
        State st = s.state();
        assertThat(st.isIdle()).isTrue();
        assertThat(st.pending()).isEmpty();
        assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
        assertThat(TranscriptValidator.violations(ContextPolicy.full().view(st, Views.LIMITS).messages(),
                TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
    }

    @Test
    void aReplyCutAtMaxTokensEndsTheTurnAndItsHalfWrittenCallNeverRuns() {
        ChatResponse cut = new ChatResponse(List.of(ContentBlock.text("let me write"),
                new ContentBlock.ToolUse("t1", "echo", TestSkills.json("{\"text\":\"unfinish\"}"))),
                StopReason.MAX_TOKENS, Usage.of(10, 100));
        try (Threadline tl = runtime(ScriptedModel.replies(cut))) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withMaxOutputTokens(100));
            TurnResult r = s.submit("write a long file");
            assertThat(r.outcome()).isEqualTo(Outcome.MAX_TOKENS);
            assertThat(r.reason()).startsWith("max_tokens: the reply reached the output limit of 100 tokens")
                    .endsWith("its tool calls were not run");
            assertThat(r.reply()).isEqualTo("let me write");
            assertThat(echoes).hasValue(0);
            assertThat(s.state().messages().getLast().toolResults()).singleElement()
                    .satisfies(x -> assertThat(x.content()).startsWith("error: not run: max_tokens"));
            assertThat(events(s).getLast()).isEqualTo(new Event.TurnCompleted(r.reason()));
            assertValidAndIdle(s);
        }
    }

    @Test
    void aRefusalEndsTheTurnWithAClearReason() {
        ChatResponse refusal = new ChatResponse(List.of(ContentBlock.text("I can't help with that.")), StopReason.REFUSAL, Usage.of(5, 5));
        try (Threadline tl = runtime(ScriptedModel.replies(refusal))) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT);
            TurnResult r = s.submit("something bad");
            assertThat(r.outcome()).isEqualTo(Outcome.REFUSED);
            assertThat(r.reason()).isEqualTo("refusal: the model declined to continue");
            assertThat(events(s).getLast()).isEqualTo(new Event.TurnCompleted("refusal: the model declined to continue"));
            assertThat(s.state().messages().getLast().stopReason()).isEqualTo(StopReason.REFUSAL);
            assertValidAndIdle(s);
        }
    }

    @Test
    void theTurnStopsOnceItHasSpentItsTokenBudget() {
        ScriptedModel model = ScriptedModel.of(req -> toolCall("t" + req.messages().size(), "echo", "{\"text\":\"again\"}"));
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withTurnTokenBudget(40));
            TurnResult r = s.submit("loop");
            assertThat(r.outcome()).isEqualTo(Outcome.TOKEN_BUDGET);
            assertThat(r.modelCalls()).isEqualTo(3); // 15 tokens a call: 45 >= 40 after the third
            assertThat(r.usage()).isEqualTo(Usage.of(30, 15));
            assertThat(r.reason()).isEqualTo("token_budget: the turn spent 45 tokens over 3 model calls; its budget is 40");
            assertThat(echoes).hasValue(3);
            assertValidAndIdle(s);
        }
    }

    @Test
    void maxOutputTokensIsTheRequestsOutputLimit() {
        ScriptedModel model = ScriptedModel.replies(text("ok")).recording();
        try (Threadline tl = runtime(model)) {
            tl.defaultTenant().create("s", SessionConfig.DEFAULT.withMaxOutputTokens(321)).submit("hi");
            assertThat(model.requests()).singleElement().satisfies(r -> assertThat(r.maxTokens()).isEqualTo(321));
        }
    }

    @Test
    void aContextThatCannotFitIsNotSentAndTheTurnSaysWhy() {
        ScriptedModel model = ScriptedModel.replies(text("never")).recording().withContextWindow(60);
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s", SessionConfig.DEFAULT.withContextPolicy(ContextPolicy.full()).withMaxOutputTokens(16));
            TurnResult r = s.submit("lorem ipsum dolor ".repeat(30));
            assertThat(r.outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
            assertThat(r.reason()).startsWith("context_overflow: the request holds").contains("window of 60")
                    .contains("Nothing was sent");
            assertThat(model.requests()).isEmpty();
            assertValidAndIdle(s);

            Session tight = tl.defaultTenant().create("t", SessionConfig.DEFAULT.withMaxOutputTokens(60));
            assertThat(tight.submit("hi").reason()).contains("maxOutputTokens=60 leaves no room for input");
        }
    }
}
