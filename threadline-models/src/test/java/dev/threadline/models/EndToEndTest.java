package dev.threadline.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.models.anthropic.AnthropicChatModel;
import dev.threadline.models.openai.OpenAiChatModel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A whole Threadline turn with a tool call, the model being a local server in each provider's wire format. */
class EndToEndTest {
    @TempDir
    Path workspace;

    final LocalServer server = LocalServer.start();
    final TestHttp.RecordingSleeper sleeper = new TestHttp.RecordingSleeper();

    @AfterEach
    void stop() {
        server.close();
    }

    static String completion(String message, String finish) {
        return "{\"choices\":[{\"index\":0,\"message\":" + message + ",\"finish_reason\":\"" + finish + "\"}],"
                + "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}";
    }

    @Test
    void aTurnWithAToolCallAgainstAnOpenAiCompatibleServer() {
        server.json(200, completion("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"calculate\",\"arguments\":\"{\\\"expression\\\":\\\"(2+3)*4\\\"}\"}}]}", "tool_calls"));
        server.json(200, completion("{\"role\":\"assistant\",\"content\":\"(2+3)*4 = 20\"}", "stop"));
        OpenAiChatModel model = OpenAiChatModel.builder().model("test-model").baseUrl(server.url() + "/v1")
                .http(TestHttp.settings(sleeper)).build();

        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).skills(Builtins.all(workspace)).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel(model.name()));
            TurnResult r = s.submit("what is (2+3)*4");

            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(r.reply()).isEqualTo("(2+3)*4 = 20");
            List<Message> t = s.state().messages();
            assertThat(t).extracting(Message::role).containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
            assertThat(t.get(1).toolUses()).containsExactly(new ContentBlock.ToolUse("call_1", "calculate",
                    Json.parse("{\"expression\":\"(2+3)*4\"}", "x")));
            assertThat(t.get(2).toolResults()).containsExactly(new ContentBlock.ToolResult("call_1", "20", false));
            assertThat(r.usage().inputTokens()).isEqualTo(20);
        }
        JsonNode first = server.request(0).json();
        assertThat(first.get("tools").findValuesAsText("name")).contains("calculate", "meeting_minutes", "read_file", "list_files");
        JsonNode messages = server.request(1).json().get("messages");
        assertThat(messages.get(messages.size() - 1)).isEqualTo(Json.parse(
                "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"20\"}", "expected"));
    }

    @Test
    void malformedArgumentsFromTheServerBecomeAClearErrorResultTheModelSeesNotACrash() {
        server.json(200, completion("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"name\":\"calculate\",\"arguments\":\"{expression: (2+3\"}}]}", "tool_calls"));
        server.json(200, completion("{\"role\":\"assistant\",\"content\":\"Sorry, my call was malformed.\"}", "stop"));
        OpenAiChatModel model = OpenAiChatModel.builder().model("test-model").baseUrl(server.url() + "/v1")
                .http(TestHttp.settings(sleeper)).build();

        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).skills(Builtins.all(workspace)).build()) {
            TurnResult r = tl.defaultTenant().create("s1", SessionConfig.DEFAULT).submit("what is (2+3)*4");
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
        }
        JsonNode messages = server.request(1).json().get("messages");
        JsonNode result = messages.get(messages.size() - 1);
        assertThat(result.get("role").asText()).isEqualTo("tool");
        assertThat(result.get("content").asText()).startsWith("Error: ").contains("invalid arguments for calculate");
    }

    @Test
    void aTurnWithAToolCallAgainstAnAnthropicStyleServer() {
        server.json(200, "{\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"calculate\",\"input\":{\"expression\":\"2^10\"}}],"
                + "\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":10,\"output_tokens\":5}}");
        server.json(200, "{\"content\":[{\"type\":\"text\",\"text\":\"2^10 = 1024\"}],\"stop_reason\":\"end_turn\","
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":4}}");
        AnthropicChatModel model = AnthropicChatModel.builder().apiKey("k").model("claude-sonnet-4-5").baseUrl(server.url())
                .http(TestHttp.settings(sleeper)).build();

        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).skills(Builtins.all(workspace)).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel(model.name()));
            assertThat(s.submit("what is 2^10").reply()).isEqualTo("2^10 = 1024");
            assertThat(s.state().messages().get(2).toolResults()).containsExactly(new ContentBlock.ToolResult("toolu_1", "1024", false));
        }
        JsonNode messages = server.request(1).json().get("messages");
        assertThat(messages.get(2)).isEqualTo(Json.parse("{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                + "\"tool_use_id\":\"toolu_1\",\"content\":\"1024\",\"is_error\":false}]}", "expected"));
    }
}
