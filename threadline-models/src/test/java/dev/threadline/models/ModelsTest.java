package dev.threadline.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.models.anthropic.AnthropicChatModel;
import dev.threadline.models.internal.ContextWindows;
import dev.threadline.models.openai.OpenAiChatModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelsTest {
    @Test
    void theDefaultFollowsTheKeysInTheEnvironment() {
        assertThat(Models.defaultSpec(Map.of("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"))).isEqualTo("anthropic:claude-sonnet-4-5");
        assertThat(Models.defaultSpec(Map.of("OPENAI_API_KEY", "o"))).isEqualTo("openai:gpt-4o-mini");
        assertThat(Models.defaultSpec(Map.of("ANTHROPIC_API_KEY", " "))).isEqualTo("scripted");
        assertThat(Models.defaultSpec(Map.of())).isEqualTo("scripted");
    }

    @Test
    void specsMakeTheirProviders() {
        ChatModel claude = Models.fromSpec("anthropic:claude-opus-4-1", null, Map.of("ANTHROPIC_API_KEY", "k"));
        assertThat(claude).isInstanceOf(AnthropicChatModel.class);
        assertThat(claude.name()).isEqualTo("anthropic:claude-opus-4-1");
        assertThat(claude.contextWindowTokens()).isEqualTo(200_000);

        ChatModel gpt = Models.fromSpec("openai:gpt-4o-mini", null, Map.of("OPENAI_API_KEY", "k"));
        assertThat(gpt).isInstanceOf(OpenAiChatModel.class);
        assertThat(gpt.contextWindowTokens()).isEqualTo(128_000);

        assertThat(Models.fromSpec("scripted", null, Map.of()).name()).isEqualTo(ScriptedModel.demo().name());
        assertThat(Models.fromSpec("anthropic", null, Map.of("ANTHROPIC_API_KEY", "k")).name()).isEqualTo("anthropic:claude-sonnet-4-5");
    }

    @Test
    void aLocalServerNeedsNoKeyAndTheWindowCanBeOverridden() {
        ChatModel local = Models.fromSpec("openai:llama3.1", "http://127.0.0.1:11434/v1", Map.of());
        assertThat(local.name()).isEqualTo("openai:llama3.1");
        assertThat(local.contextWindowTokens()).isEqualTo(131_072);
        assertThat(Models.fromSpec("openai:my-finetune", "http://127.0.0.1:8000/v1", Map.of()).contextWindowTokens())
                .isEqualTo(ContextWindows.OPENAI_COMPATIBLE_DEFAULT);
        assertThat(Models.fromSpec("openai:my-finetune", null, Map.of("OPENAI_BASE_URL", "http://localhost:8080/v1"), 32_000,
                dev.threadline.models.http.HttpSettings.defaults()).contextWindowTokens()).isEqualTo(32_000);
    }

    @Test
    void aMissingKeyForTheRealApiSaysWhichVariableToSet() {
        assertThatThrownBy(() -> Models.fromSpec("anthropic:claude-sonnet-4-5", null, Map.of()))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ModelException.Kind.AUTH);
                    assertThat(e.getMessage()).contains("no API key for anthropic:claude-sonnet-4-5").contains("set ANTHROPIC_API_KEY")
                            .contains("--model scripted");
                });
        assertThatThrownBy(() -> Models.fromSpec("openai:gpt-4o", null, Map.of()))
                .hasMessageContaining("set OPENAI_API_KEY");
    }

    @Test
    void badSpecsAndUrlsAreRefusedClearly() {
        assertThatThrownBy(() -> Models.fromSpec("gemini:pro", null, Map.of())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'gemini:pro' is not a model this build offers").hasMessageContaining("anthropic:MODEL");
        assertThatThrownBy(() -> Models.fromSpec("openai:x", "ftp://host/v1", Map.of())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("must be an http(s) URL");
        assertThatThrownBy(() -> Models.fromSpec("scripted", "http://127.0.0.1:1/v1", Map.of()))
                .hasMessageContaining("takes no model name or base URL");
    }

    @Test
    void aProviderFromASpecReallyTalksToItsBaseUrl() {
        try (LocalServer server = LocalServer.start()) {
            server.json(200, "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hello\"},\"finish_reason\":\"stop\"}]}");
            ChatModel m = Models.fromSpec("openai:test-model", server.url() + "/v1", Map.of());
            assertThat(m.complete(new ChatRequest("x", "", List.of(Message.user("hi")), List.of(), 10)).text()).isEqualTo("hello");
            assertThat(server.request(0).json().get("model").asText()).isEqualTo("test-model");
        }
    }

    @Test
    void contextWindowsByFamily() {
        assertThat(ContextWindows.openAi("gpt-4o-mini")).isEqualTo(128_000);
        assertThat(ContextWindows.openAi("gpt-4.1-nano")).isEqualTo(1_047_576);
        assertThat(ContextWindows.openAi("gpt-4")).isEqualTo(8_192);
        assertThat(ContextWindows.openAi("meta-llama/Llama3.1-8B-Instruct")).isEqualTo(131_072);
        assertThat(ContextWindows.openAi("unknown")).isEqualTo(8_192);
        assertThat(ContextWindows.anthropic("claude-haiku-4-5")).isEqualTo(200_000);
    }
}
