package dev.threadline.models.openai;

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

/** The OpenAI-compatible provider against a local chat-completions server: mapping and round trips. */
class OpenAiChatModelTest {
    static final List<ToolSpec> TOOLS = List.of(new ToolSpec("calculate", "Evaluates arithmetic.", Json.parse(
            "{\"type\":\"object\",\"properties\":{\"expression\":{\"type\":\"string\"}},\"required\":[\"expression\"]}", "schema")));

    final LocalServer server = LocalServer.start();
    final TestHttp.RecordingSleeper sleeper = new TestHttp.RecordingSleeper();
    final OpenAiChatModel model = OpenAiChatModel.builder().model("llama3.1").baseUrl(server.url() + "/v1")
            .http(TestHttp.settings(sleeper)).build();

    @AfterEach
    void stop() {
        server.close();
    }

    static String completion(String message, String finishReason, String usage) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"llama3.1\",\"choices\":[{\"index\":0,\"message\":"
                + message + ",\"finish_reason\":\"" + finishReason + "\"}]" + (usage == null ? "" : ",\"usage\":" + usage) + "}";
    }

    @Test
    void aToolRoundTripSendsTheExactChatCompletionsJson() {
        server.json(200, completion("""
                {"role":"assistant","content":"Let me calculate.","tool_calls":[
                  {"id":"call_1","type":"function","function":{"name":"calculate","arguments":"{\\"expression\\":\\"(2+3)*4\\"}"}},
                  {"id":"call_2","type":"function","function":{"name":"calculate","arguments":"{\\"expression\\":\\"1/0\\"}"}}]}""",
                "tool_calls", "{\"prompt_tokens\":100,\"completion_tokens\":20,\"total_tokens\":120,\"prompt_tokens_details\":{\"cached_tokens\":64}}"));
        server.json(200, completion("{\"role\":\"assistant\",\"content\":\"(2+3)*4 = 20\"}", "stop", null));

        List<Message> transcript = new ArrayList<>(List.of(Message.user("what is (2+3)*4 and 1/0")));
        ChatResponse first = model.complete(new ChatRequest("ignored", "You are terse.", transcript, TOOLS, 256));

        assertThat(first.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(first.usage()).isEqualTo(new Usage(36, 20, 64, 0));
        assertThat(first.content()).containsExactly(ContentBlock.text("Let me calculate."),
                new ContentBlock.ToolUse("call_1", "calculate", Json.parse("{\"expression\":\"(2+3)*4\"}", "x")),
                new ContentBlock.ToolUse("call_2", "calculate", Json.parse("{\"expression\":\"1/0\"}", "x")));
        LocalServer.Recorded r1 = server.request(0);
        assertThat(r1.path()).isEqualTo("/v1/chat/completions");
        assertThat(r1.header("authorization")).isNull();
        assertThat(r1.json()).isEqualTo(Json.parse("""
                {"model":"llama3.1",
                 "messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"what is (2+3)*4 and 1/0"}],
                 "tools":[{"type":"function","function":{"name":"calculate","description":"Evaluates arithmetic.",
                   "parameters":{"type":"object","properties":{"expression":{"type":"string"}},"required":["expression"]}}}],
                 "max_tokens":256}""", "expected"));

        transcript.add(first.toMessage());
        transcript.add(Message.toolResults(List.of(new ContentBlock.ToolResult("call_1", "20", false),
                new ContentBlock.ToolResult("call_2", "division by zero", true))));
        ChatResponse second = model.complete(new ChatRequest("ignored", "You are terse.", transcript, TOOLS, 256));

        assertThat(second.text()).isEqualTo("(2+3)*4 = 20");
        assertThat(second.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(server.request(1).json().get("messages")).isEqualTo(Json.parse("""
                [{"role":"system","content":"You are terse."},
                 {"role":"user","content":"what is (2+3)*4 and 1/0"},
                 {"role":"assistant","content":"Let me calculate.","tool_calls":[
                   {"id":"call_1","type":"function","function":{"name":"calculate","arguments":"{\\"expression\\":\\"(2+3)*4\\"}"}},
                   {"id":"call_2","type":"function","function":{"name":"calculate","arguments":"{\\"expression\\":\\"1/0\\"}"}}]},
                 {"role":"tool","tool_call_id":"call_1","content":"20"},
                 {"role":"tool","tool_call_id":"call_2","content":"Error: division by zero"}]""", "expected"));
    }

    @Test
    void theKeyIsABearerTokenAndOpenAiItselfGetsMaxCompletionTokens() {
        OpenAiChatModel withKey = OpenAiChatModel.builder().model("gpt-4o-mini").apiKey("sk-test").baseUrl(server.url() + "/v1")
                .maxTokensField("max_completion_tokens").http(TestHttp.settings(sleeper)).build();
        server.json(200, completion("{\"role\":\"assistant\",\"content\":\"hi\"}", "stop", null));
        withKey.complete(new ChatRequest("m", "", List.of(Message.user("hi")), List.of(), 50));
        assertThat(server.request(0).header("authorization")).isEqualTo("Bearer sk-test");
        assertThat(server.request(0).json().get("max_completion_tokens").asInt()).isEqualTo(50);
        assertThat(server.request(0).json().has("max_tokens")).isFalse();
    }

    @Test
    void malformedToolArgumentsAreKeptAsRawSoValidationCanRefuseThemClearly() {
        server.json(200, completion("""
                {"role":"assistant","content":null,"tool_calls":[
                  {"id":"call_1","type":"function","function":{"name":"calculate","arguments":"{expression: 2+2"}}]}""",
                "tool_calls", null));
        ChatResponse r = model.complete(new ChatRequest("m", "", List.of(Message.user("2+2")), TOOLS, 50));
        assertThat(r.content()).containsExactly(new ContentBlock.ToolUse("call_1", "calculate",
                Json.parse("{\"_raw\":\"{expression: 2+2\"}", "x")));
    }

    @Test
    void aServerThatSaysStopButReturnsToolCallsMeansToolUseAndMissingIdsAreMadeUp() {
        server.json(200, completion("""
                {"role":"assistant","content":"","tool_calls":[{"type":"function","function":{"name":"calculate","arguments":{"expression":"1"}}}]}""",
                "stop", null));
        ChatResponse r = model.complete(new ChatRequest("m", "", List.of(Message.user("1")), TOOLS, 50));
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        ContentBlock.ToolUse use = r.toMessage().toolUses().getFirst();
        assertThat(use.id()).startsWith("call_");
        assertThat(use.input()).isEqualTo(Json.parse("{\"expression\":\"1\"}", "x"));
    }

    @Test
    void finishReasonsMapToStopReasons() {
        server.json(200, completion("{\"role\":\"assistant\",\"content\":\"cut\"}", "length", null));
        server.json(200, completion("{\"role\":\"assistant\",\"content\":null}", "content_filter", null));
        server.json(200, completion("{\"role\":\"assistant\",\"content\":null,\"refusal\":\"I can't help with that.\"}", "stop", null));
        ChatRequest req = new ChatRequest("m", "", List.of(Message.user("x")), List.of(), 5);
        assertThat(model.complete(req).stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        assertThat(model.complete(req).stopReason()).isEqualTo(StopReason.REFUSAL);
        ChatResponse refusal = model.complete(req);
        assertThat(refusal.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(refusal.text()).isEqualTo("I can't help with that.");
    }

    @Test
    void reasoningContentOfLocalServersBecomesAThinkingBlockThatIsNotSentBack() {
        server.json(200, completion("{\"role\":\"assistant\",\"reasoning_content\":\"2+2 is 4\",\"content\":\"4\"}", "stop", null));
        server.json(200, completion("{\"role\":\"assistant\",\"content\":\"ok\"}", "stop", null));
        ChatResponse r = model.complete(new ChatRequest("m", "", List.of(Message.user("2+2")), List.of(), 50));
        assertThat(r.content()).containsExactly(new ContentBlock.Thinking("2+2 is 4", null), ContentBlock.text("4"));
        model.complete(new ChatRequest("m", "", List.of(Message.user("2+2"), r.toMessage(), Message.user("thanks")), List.of(), 50));
        assertThat(server.request(1).json().get("messages").get(1)).isEqualTo(Json.parse("{\"role\":\"assistant\",\"content\":\"4\"}", "x"));
    }

    @Test
    void nameAndContextWindowByFamily() {
        assertThat(model.name()).isEqualTo("openai:llama3.1");
        assertThat(model.contextWindowTokens()).isEqualTo(131_072);
    }
}
