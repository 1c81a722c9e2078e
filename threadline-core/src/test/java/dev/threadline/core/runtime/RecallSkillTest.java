package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 38: the {@code recall} skill finds what left the window. A session whose turn 3 says the door
 * code, then 300 more turns in a small window (compacted many times): the code is in no request the
 * model gets any more, and its {@code recall} call brings it back as the first hit, with the seq that
 * holds it.
 */
class RecallSkillTest {
    private static final String LONG = " and some filler words about the weather and the garden".repeat(3);

    @Test
    void theModelsRecallFindsTheDoorCodeLongAfterCompactionTookItOutOfTheWindow() {
        ScriptedModel model = ScriptedModel.of(RecallSkillTest::script).withContextWindow(1_500).recording();
        TestClock clock = new TestClock();
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore(clock)).clock(clock).model(model)
                .skill(Builtins.recall()).build()) {
            Session s = tl.defaultTenant().create("long", SessionConfig.DEFAULT.withMaxOutputTokens(64));
            for (int i = 0; i < 300; i++) {
                s.submit(i == 3 ? "remember this: the door code is 4712" : "turn " + i + LONG);
            }
            assertThat(s.history().journal()).filteredOn(e -> e.event() instanceof Event.ContextCompacted).hasSizeGreaterThan(5);
            ChatRequest lastBefore = model.requests().getLast();
            assertThat(lastBefore.messages()).noneMatch(m -> m.text().contains("4712"));

            TurnResult r = s.submit("what was the door code?");

            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            String result = s.state().messages().stream().flatMap(m -> m.content().stream())
                    .filter(b -> b instanceof ContentBlock.ToolResult).map(b -> ((ContentBlock.ToolResult) b).content())
                    .reduce((a, b) -> b).orElseThrow();
            assertThat(result).contains("best first:");
            String firstHit = result.lines().skip(1).findFirst().orElseThrow();
            assertThat(firstHit).contains("(user, ").endsWith("remember this: the door code is 4712");
            long seq = Long.parseLong(firstHit.replaceAll("^- seq (\\d+) .*$", "$1"));
            assertThat(s.history().journal()).filteredOn(e -> e.seq() == seq).singleElement()
                    .satisfies(e -> assertThat(e.event()).isInstanceOf(Event.UserMessageReceived.class));
            assertThat(s.state().messages().getLast().text()).contains("4712");
        }
    }

    /** Asks recall when asked about the code, answers with what recall returned; otherwise a short reply. */
    private static ChatResponse script(ChatRequest r) {
        if (SummaryPrompt.isSummaryRequest(r)) {
            return ScriptedModel.text("summary of earlier turns");
        }
        Message last = r.messages().getLast();
        boolean toolResult = last.content().stream().anyMatch(b -> b instanceof ContentBlock.ToolResult);
        if (toolResult) {
            return ScriptedModel.text("From what we said: " + last.content().stream().filter(b -> b instanceof ContentBlock.ToolResult)
                    .map(b -> ((ContentBlock.ToolResult) b).content()).findFirst().orElse(""));
        }
        if (last.text().contains("what was the door code")) {
            return ScriptedModel.toolUse("r1", "recall", "{\"query\": \"door code\", \"limit\": 3}");
        }
        return ScriptedModel.text("ok");
    }

    @Test
    void aContextWithoutAJournalFindsNothingAndABadQueryIsAnErrorResult() throws Exception {
        var skill = Builtins.recall();
        var ctx = dev.threadline.core.skill.SimpleExecutionContext.of("s", "t1",
                dev.threadline.core.json.Json.parse("{\"query\": \"door\"}", "args"), java.util.Map.of(), java.time.Instant.MAX);
        assertThat(skill.execute(ctx).content()).startsWith("Nothing said earlier");
        var real = new dev.threadline.core.skill.ExecutionContext() {
            public String sessionId() { return "s"; }
            public String toolUseId() { return "t1"; }
            public com.fasterxml.jackson.databind.JsonNode arguments() { return dev.threadline.core.json.Json.parse("{\"query\": \"?!\"}", "a"); }
            public java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> variables(dev.threadline.core.state.VariableScope s) { return java.util.Map.of(); }
            public List<Message> messages() { return List.of(); }
            public java.time.Instant deadline() { return java.time.Instant.MAX; }
            public boolean isCancelled() { return false; }
            public org.slf4j.Logger logger() { return org.slf4j.LoggerFactory.getLogger("t"); }
            @Override
            public List<dev.threadline.core.model.SearchHit> search(String q, int n) {
                return dev.threadline.core.internal.engine.state.JournalSearch.search(List.of(), q, n);
            }
        };
        var bad = skill.execute(real);
        assertThat(bad.isError()).isTrue();
        assertThat(bad.content()).contains("recall:").contains("no word");
    }
}
