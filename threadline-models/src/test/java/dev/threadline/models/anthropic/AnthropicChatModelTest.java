package dev.threadline.models.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.models.LocalServer;
import dev.threadline.models.TestHttp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Anthropic provider against a local server speaking the Messages API: mapping and round trips. */
class AnthropicChatModelTest {
    static final List<ToolSpec> TOOLS = List.of(new ToolSpec("calculate", "Evaluates arithmetic.", Json.parse(
            "{\"type\":\"object\",\"properties\":{\"expression\":{\"type\":\"string\"}},\"required\":[\"expression\"]}", "schema")));

    final LocalServer server = LocalServer.start();
    final TestHttp.RecordingSleeper sleeper = new TestHttp.RecordingSleeper();
    final AnthropicChatModel model = AnthropicChatModel.builder().apiKey("sk-ant-test-key").model("claude-sonnet-4-5")
            .baseUrl(server.url()).http(TestHttp.settings(sleeper)).build();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aToolRoundTripSendsTheExactMessagesApiJsonAndReadsTheReplies() {
        server.json(200, """
                {"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
                 "content":[{"type":"thinking","thinking":"I should calculate.","signature":"sig-1"},
                            {"type":"text","text":"Let me calculate."},
                            {"type":"tool_use","id":"toolu_1","name":"calculate","input":{"expression":"(2+3)*4"}},
                            {"type":"tool_use","id":"toolu_2","name":"calculate","input":{"expression":"1/0"}}],
                 "stop_reason":"tool_use","stop_sequence":null,
                 "usage":{"input_tokens":120,"output_tokens":40,"cache_read_input_tokens":1000,"cache_creation_input_tokens":50}}""");
        server.json(200, """
                {"id":"msg_2","type":"message","role":"assistant","content":[{"type":"text","text":"(2+3)*4 = 20"}],
                 "stop_reason":"end_turn","usage":{"input_tokens":200,"output_tokens":9}}""");

        List<Message> transcript = new ArrayList<>(List.of(Message.user("what is (2+3)*4 and 1/0")));
        ChatResponse first = model.complete(new ChatRequest("ignored", "You are terse.", transcript, TOOLS, 1024));

        assertThat(first.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(first.usage()).isEqualTo(new Usage(120, 40, 1000, 50));
        assertThat(first.content()).containsExactly(
                new ContentBlock.Thinking("I should calculate.", "sig-1"),
                ContentBlock.text("Let me calculate."),
                new ContentBlock.ToolUse("toolu_1", "calculate", Json.parse("{\"expression\":\"(2+3)*4\"}", "x")),
                new ContentBlock.ToolUse("toolu_2", "calculate", Json.parse("{\"expression\":\"1/0\"}", "x")));
        LocalServer.Recorded r1 = server.request(0);
        assertThat(r1.path()).isEqualTo("/v1/messages");
        assertThat(r1.header("x-api-key")).isEqualTo("sk-ant-test-key");
        assertThat(r1.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(r1.json()).isEqualTo(Json.parse("""
                {"model":"claude-sonnet-4-5","max_tokens":1024,"system":"You are terse.",
                 "messages":[{"role":"user","content":[{"type":"text","text":"what is (2+3)*4 and 1/0"}]}],
                 "tools":[{"name":"calculate","description":"Evaluates arithmetic.",
                           "input_schema":{"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}}]}
                """, "expected"));

        transcript.add(first.toMessage());
        transcript.add(Message.toolResults(List.of(new ContentBlock.ToolResult("toolu_1", "20", false),
                new ContentBlock.ToolResult("toolu_2", "division by zero", true))));
        ChatResponse second = model.complete(new ChatRequest("ignored", "You are terse.", transcript, TOOLS, 1024));

        assertThat(second.text()).isEqualTo("(2+3)*4 = 20");
        assertThat(second.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(server.request(1).json().get("messages")).isEqualTo(Json.parse("""
                [{"role":"user","content":[{"type":"text","text":"what is (2+3)*4 and 1/0"}]},
                 {"role":"assistant","content":[
                    {"type":"thinking","thinking":"I should calculate.","signature":"sig-1"},
                    {"type":"text","text":"Let me calculate."},
                    {"type":"tool_use","id":"toolu_1","name":"calculate","input":{"expression":"(2+3)*4"}},
                    {"type":"tool_use","id":"toolu_2","name":"calculate","input":{"expression":"1/0"}}]},
                 {"role":"user","content":[
                    {"type":"tool_result","tool_use_id":"toolu_1","content":"20","is_error":false},
                    {"type":"tool_result","tool_use_id":"toolu_2","content":"division by zero","is_error":true}]}]
                """, "expected"));
    }

    @Test
    void systemMessagesJoinTheSystemPromptAndAResultFollowedByAUserMessageIsOneUserTurn() {
        server.json(200, "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],\"stop_reason\":\"end_turn\"}");
        List<Message> view = List.of(Message.system("Summary: the user likes tea."), Message.user("hi"),
                Message.assistant(List.of(new ContentBlock.Thinking("no signature here", null),
                        new ContentBlock.ToolUse("t1", "calculate", Json.parse("{\"expression\":\"1\"}", "x"))), StopReason.TOOL_USE, Usage.ZERO),
                Message.toolResults(List.of(new ContentBlock.ToolResult("t1", "cancelled: interrupted", true))),
                Message.user("go on"));

        model.complete(new ChatRequest("m", "Be kind.", view, List.of(), 100));

        assertThat(server.request(0).json()).isEqualTo(Json.parse("""
                {"model":"claude-sonnet-4-5","max_tokens":100,"system":"Be kind.\\n\\nSummary: the user likes tea.",
                 "messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},
                   {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"calculate","input":{"expression":"1"}}]},
                   {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"cancelled: interrupted","is_error":true},
                                             {"type":"text","text":"go on"}]}]}
                """, "expected"));
    }

    @Test
    void refusalAndCacheUsageAreRead() {
        server.json(200, """
                {"content":[{"type":"text","text":"I can't help with that."}],"stop_reason":"refusal",
                 "usage":{"input_tokens":5,"output_tokens":6,"cache_read_input_tokens":7,"cache_creation_input_tokens":8}}""");
        ChatResponse r = model.complete(new ChatRequest("m", "", List.of(Message.user("x")), List.of(), 10));
        assertThat(r.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(r.usage()).isEqualTo(new Usage(5, 6, 7, 8));
    }

    @Test
    void aNonStreamedReplyCutAtMaxTokensLosesItsTrailingToolUse() {
        server.json(200, """
                {"content":[{"type":"text","text":"I will compute"},
                            {"type":"tool_use","id":"toolu_9","name":"calculate","input":{}}],
                 "stop_reason":"max_tokens","usage":{"input_tokens":5,"output_tokens":10}}""");
        ChatResponse r = model.complete(new ChatRequest("m", "", List.of(Message.user("x")), TOOLS, 10));
        assertThat(r.content()).containsExactly(ContentBlock.text("I will compute"));
        assertThat(r.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
    }

    @Test
    void countTokensAsksTheCountTokensEndpointWithoutMaxTokens() {
        server.json(200, "{\"input_tokens\":42}");
        var n = model.countTokens(new ChatRequest("m", "sys", List.of(Message.user("hello")), TOOLS, 10));
        assertThat(n).hasValue(42);
        LocalServer.Recorded r = server.request(0);
        assertThat(r.path()).isEqualTo("/v1/messages/count_tokens");
        assertThat(r.json().has("max_tokens")).isFalse();
        assertThat(r.json().get("messages")).hasSize(1);
        assertThat(r.json().get("tools")).hasSize(1);
    }

    @Test
    void aFailedCountIsEmptyAndNotRetried() {
        server.json(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
        assertThat(model.countTokens(new ChatRequest("m", "", List.of(Message.user("hello")), List.of(), 10))).isEmpty();
        assertThat(server.requests()).hasSize(1);
        assertThat(sleeper.delays()).isEmpty();
    }

    @Test
    void nameAndContextWindow() {
        assertThat(model.name()).isEqualTo("anthropic:claude-sonnet-4-5");
        assertThat(model.contextWindowTokens()).isEqualTo(200_000);
        assertThat(AnthropicChatModel.builder().model("claude-x").contextWindowTokens(1_000_000).build().contextWindowTokens())
                .isEqualTo(1_000_000);
    }
}
