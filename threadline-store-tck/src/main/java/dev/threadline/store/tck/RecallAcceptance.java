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
import java.time.Clock;

/**
 * Issue 38's acceptance on a backend: a session whose turn 3 says the door code, then many more turns
 * in a 1,500-token window (compacted many times, so the code is in no request any more); the scripted
 * model's {@code recall} call finds it as the first hit, through the store's {@link
 * dev.threadline.core.store.TextSearch}. Each backend's test runs it on its own store. Stateless.
 */
public final class RecallAcceptance {
    private static final String LONG = " and some filler words about the weather and the garden".repeat(3);

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
            return firstHit;
        }
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
