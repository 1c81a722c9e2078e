package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.context.ContextRecall;
import dev.threadline.core.state.TranscriptValidator;
import java.time.Clock;
import java.util.List;

/**
 * Issue 38's acceptance on a backend: a session whose turn 3 says the door code, then many more turns
 * in a 1,500-token window (compacted many times, so the code is in no request any more); the scripted
 * model's {@code recall} call finds it as the first hit, through the store's {@link
 * dev.threadline.core.store.TextSearch}, and the request that asked (recall off) does not hold it.
 * Before it, the recall context policy (ADR 0042): a session with recall on, the code in its turn 3 and
 * {@link #POLICY_TURNS} turns in the same window, gets the code back in the request that asks about it,
 * after the summary and marked as recalled. That session is shorter because recall searches before every
 * model call, and a search costs what the backend's index costs for the words of the user's message
 * (docs/context.md); it runs first, so its searches do not also pass over the long session's messages.
 * Each backend's test runs it on its own store. Stateless.
 */
public final class RecallAcceptance {
    private static final String LONG = " and some filler words about the weather and the garden".repeat(3);

    /** Turns of the session with recall on (compacted many times over in the 1,500-token window). */
    public static final int POLICY_TURNS = 300;

    private RecallAcceptance() {}

    /**
     * Runs the scenario with {@code turns} turns on {@code store} (which it closes) and checks it,
     * failing the calling test when the door code is not the first hit.
     *
     * @return the recall's first hit line, as the model saw it
     */
    public static String run(StateStore store, Clock clock, int turns) {
        ScriptedModel model = ScriptedModel.of(RecallAcceptance::script).withContextWindow(1_500).recording();
        try (Threadline tl = Threadline.builder().store(store).clock(clock).model(model).skill(Builtins.recall()).build()) {
            recallPolicy(tl, model);
            Session s = tl.defaultTenant().create("long", SessionConfig.DEFAULT.withMaxOutputTokens(64));
            for (int i = 0; i < turns; i++) {
                s.submit(i == 3 ? "remember this: the door code is 4712" : "turn " + i + LONG);
            }
            assertThat(s.history().journal()).filteredOn(e -> e.event() instanceof Event.ContextCompacted).hasSizeGreaterThan(5);
            assertThat(model.requests().getLast().messages()).noneMatch(m -> m.text().contains("4712"));

            TurnResult r = s.submit("what was the door code?");

            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            String result = s.state().messages().stream().flatMap(m -> m.content().stream())
                    .filter(b -> b instanceof ContentBlock.ToolResult).map(b -> ((ContentBlock.ToolResult) b).content())
                    .reduce((a, b) -> b).orElseThrow();
            String firstHit = result.lines().skip(1).findFirst().orElseThrow();
            assertThat(firstHit).contains("(user, ").endsWith("remember this: the door code is 4712");
            long seq = Long.parseLong(firstHit.replaceAll("^- seq (\\d+) .*$", "$1"));
            assertThat(s.history().journal()).filteredOn(e -> e.seq() == seq).singleElement()
                    .satisfies(e -> assertThat(e.event()).isInstanceOf(Event.UserMessageReceived.class));
            assertThat(s.state().messages().getLast().text()).contains("4712");
            assertThat(question(model).messages()).noneMatch(m -> m.text().contains("4712")); // recall off

            return firstHit;
        }
    }

    /** With recall on, the request that asks about the code holds it, after the summary, marked with its seq. */
    private static void recallPolicy(Threadline tl, ScriptedModel model) {
        Session on = tl.defaultTenant().create("recalled", SessionConfig.DEFAULT.withMaxOutputTokens(64).withRecall(3, 200));
        for (int i = 0; i < POLICY_TURNS; i++) {
            on.submit(i == 3 ? "remember this: the door code is 4712" : "turn " + i + LONG);
        }
        assertThat(on.history().journal()).filteredOn(e -> e.event() instanceof Event.ContextCompacted).hasSizeGreaterThan(5);
        assertThat(model.requests().getLast().messages()).noneMatch(m -> m.text().contains("4712"));
        on.submit("what was the door code?");
        List<Message> asked = question(model).messages();
        assertThat(asked.get(0).text()).contains("summarised");
        assertThat(asked.get(1).text()).startsWith(ContextRecall.HEADER)
                .containsPattern("\\[recalled seq \\d+, user\\] remember this: the door code is 4712");
        assertThat(TranscriptValidator.violations(asked, TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        assertThat(on.history().journal()).anyMatch(e -> e.event() instanceof Event.ContextRecalled);
    }

    /** The latest request that asked the question itself (the turn's first model call). */
    private static ChatRequest question(ScriptedModel model) {
        return model.requests().stream().filter(r -> !SummaryPrompt.isSummaryRequest(r))
                .filter(r -> r.messages().getLast().text().equals("what was the door code?")).reduce((a, b) -> b).orElseThrow();
    }

    /** Asks recall when asked about the code, answers with what recall returned; otherwise a short reply. */
    private static ChatResponse script(ChatRequest r) {
        if (SummaryPrompt.isSummaryRequest(r)) {
            return ScriptedModel.text("summary of earlier turns");
        }
        Message last = r.messages().getLast();
        String result = last.content().stream().filter(b -> b instanceof ContentBlock.ToolResult)
                .map(b -> ((ContentBlock.ToolResult) b).content()).findFirst().orElse(null);
        if (result != null) {
            return ScriptedModel.text("From what we said: " + result);
        }
        if (last.text().contains("what was the door code")) {
            return ScriptedModel.toolUse("r1", "recall", "{\"query\": \"door code\", \"limit\": 3}");
        }
        return ScriptedModel.text("ok");
    }
}
