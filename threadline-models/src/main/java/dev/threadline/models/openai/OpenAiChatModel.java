package dev.threadline.models.openai;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.models.http.HttpModelBuilder;
import dev.threadline.models.http.HttpSettings;
import java.net.URI;

/**
 * A {@link ChatModel} on an OpenAI-compatible Chat Completions API ({@code POST {baseUrl}/chat/completions}):
 * OpenAI itself, or a local server such as Ollama ({@code http://127.0.0.1:11434/v1}), vLLM
 * ({@code http://127.0.0.1:8000/v1}) or llama.cpp's {@code llama-server} ({@code http://127.0.0.1:8080/v1}),
 * made by {@link #builder()}. The API key is optional (local servers need none). Retries, timeouts and
 * errors are those every HTTP provider shares (see {@link HttpSettings});
 * {@link #stream(ChatRequest, StreamListener)} hands out text and each tool call's arguments as they
 * arrive. The model named here is the one sent, whatever {@link ChatRequest#model()} says.
 * Implementations are thread-safe.
 *
 * <p>The output limit goes in {@code max_completion_tokens} for OpenAI itself (its reasoning models
 * refuse {@code max_tokens}) and in {@code max_tokens} for other servers, which all know that one;
 * {@link Builder#maxTokensField} overrides the choice.
 */
public interface OpenAiChatModel extends ChatModel {
    /** OpenAI's API root. */
    URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");

    /** A builder; set at least the model. */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Configures an {@link OpenAiChatModel}: the settings every HTTP provider takes (the model is
     * required; the API root, with its version path, defaults to {@link #DEFAULT_BASE_URL}, and
     * {@code /chat/completions} is appended) and the name of the output limit. Not thread-safe; the
     * model it builds is.
     */
    final class Builder extends HttpModelBuilder<Builder> {
        private String maxTokensField;

        private Builder() {
            super(DEFAULT_BASE_URL);
        }

        /**
         * {@code max_tokens} or {@code max_completion_tokens} (default: by server, see the interface doc).
         *
         * @throws IllegalArgumentException when {@code field} is neither
         */
        public Builder maxTokensField(String field) {
            if (!"max_tokens".equals(field) && !"max_completion_tokens".equals(field)) {
                throw new IllegalArgumentException("maxTokensField must be max_tokens or max_completion_tokens, was " + field);
            }
            this.maxTokensField = field;
            return this;
        }

        /**
         * The model.
         *
         * @throws IllegalArgumentException when no model is set or the base URL is not absolute
         */
        public OpenAiChatModel build() {
            if (model() == null || model().isBlank()) {
                throw new IllegalArgumentException("an OpenAI-compatible model name is required, e.g. gpt-4o-mini or llama3.1");
            }
            if (baseUrl().getScheme() == null || baseUrl().getHost() == null) {
                throw new IllegalArgumentException("the base URL must be absolute, e.g. http://127.0.0.1:11434/v1; was " + baseUrl());
            }
            return new ChatCompletionsModel(model(), baseUrl(), apiKey(), http(), contextWindowTokens(), maxTokensField);
        }
    }
}
