package dev.threadline.core.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptedModelTest {
    private static final ChatRequest REQUEST = new ChatRequest("scripted", "", List.of(Message.user("hi")), List.of(), 100);

    @Test
    void repliesInOrderThenFailsClearly() {
        ChatModel model = ScriptedModel.replies(ScriptedModel.toolUse("t1", "calculate", "{\"expression\":\"1+1\"}"),
                ScriptedModel.text("two"));
        ChatResponse first = model.complete(REQUEST);
        assertThat(first.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(first.toMessage().toolUses()).singleElement().satisfies(u -> {
            assertThat(u.id()).isEqualTo("t1");
            assertThat(u.input().get("expression").asText()).isEqualTo("1+1");
        });
        assertThat(model.complete(REQUEST).text()).isEqualTo("two");
        assertThatThrownBy(() -> model.complete(REQUEST))
                .isInstanceOfSatisfying(ModelException.class, e -> assertThat(e.retryable()).isFalse())
                .hasMessageStartingWith("script exhausted")
                .hasMessageContaining("all 2 scripted replies were used");
    }

    @Test
    void anEmptyScriptFailsAtOnce() {
        assertThatThrownBy(() -> ScriptedModel.replies().complete(REQUEST)).hasMessageContaining("script exhausted");
    }

    @Test
    void ofRunsTheFunctionOnEachRequest() {
        ChatModel model = ScriptedModel.of(r -> ScriptedModel.text("seen " + r.messages().size()));
        assertThat(model.name()).isEqualTo("scripted");
        assertThat(model.complete(REQUEST).text()).isEqualTo("seen 1");
        assertThat(ScriptedModel.demo().name()).isEqualTo("scripted");
    }

    @Test
    void aScriptThatReturnsNothingIsAModelError() {
        assertThatThrownBy(() -> ScriptedModel.of(r -> null).complete(REQUEST))
                .isInstanceOf(ModelException.class).hasMessageContaining("no response");
    }

    @Test
    void streamsTheTextWordByWord() {
        ChatModel model = ScriptedModel.replies(ScriptedModel.text("one two  three"));
        List<String> chunks = new ArrayList<>();
        ChatResponse r = model.stream(REQUEST, chunks::add);
        assertThat(chunks).containsExactly("one", " two", "  three");
        assertThat(String.join("", chunks)).isEqualTo(r.text());
    }

    @Test
    void aToolOnlyReplyStreamsNothing() {
        List<String> chunks = new ArrayList<>();
        ScriptedModel.replies(new ChatResponse(List.of(new ContentBlock.ToolUse("t", "x", dev.threadline.core.json.Json.object())),
                StopReason.TOOL_USE, null)).stream(REQUEST, chunks::add);
        assertThat(chunks).isEmpty();
    }

    @Test
    void aWindowCanBeSetAndRequestsRecorded() {
        ScriptedModel model = ScriptedModel.of(r -> ScriptedModel.text("x")).withContextWindow(1_000).recording();
        assertThat(model.contextWindowTokens()).isEqualTo(1_000);
        assertThat(ScriptedModel.demo().contextWindowTokens()).isEqualTo(200_000);
        model.complete(REQUEST);
        assertThat(model.requests()).containsExactly(REQUEST);
        assertThat(ScriptedModel.demo().requests()).isEmpty();
        assertThatThrownBy(() -> model.withContextWindow(0)).hasMessageContaining("at least 1 token");
    }

    @Test
    void summaryRequestsGetADeterministicSummaryAndNeverReachTheScript() {
        ScriptedModel model = ScriptedModel.replies(); // any script call would fail
        List<Message> part = List.of(Message.user("what is 2+2"), Message.assistantText("4"), Message.user("and 3+3"),
                Message.assistantText("6"));
        ChatRequest r = SummaryPrompt.request("m", "earlier things", part, null, 100, 10_000, TokenCounter.approximate());
        ChatResponse first = model.complete(r);
        assertThat(first.text()).isEqualTo(model.complete(r).text())
                .isEqualTo("Summary of 4 earlier lines with 2 user requests, following an earlier summary."
                        + " Latest requests: \"what is 2+2\"; \"and 3+3\".");
        assertThat(first.usage().totalTokens()).isPositive();
        assertThat(SummaryPrompt.summaryOf(first)).startsWith("Summary of 4");
    }

    @Test
    void aSummaryRequestIsClippedToFitAndCarriesNoTools() {
        String huge = "word ".repeat(5_000);
        List<Message> part = List.of(Message.user("start"), Message.assistantText(huge), Message.user("end"));
        ChatRequest r = SummaryPrompt.request("m", null, part, "the ending", 50, 400, TokenCounter.approximate());
        assertThat(r.tools()).isEmpty();
        assertThat(TokenCounter.approximate().count(r)).isLessThanOrEqualTo(400);
        assertThat(r.messages().getFirst().text()).contains("characters left out").contains("[user] end")
                .contains("Focus on: the ending");
        assertThat(r.maxTokens()).isEqualTo(50);
    }
}
