package dev.threadline.models.anthropic;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.models.http.HttpModelBuilder;
import dev.threadline.models.http.HttpSettings;
import java.net.URI;

/**
 * A {@link ChatModel} on Anthropic's Messages API ({@code POST /v1/messages}), over the JDK HTTP
 * client (see ADR 0009 for why not the SDK), made by {@link #builder()}. Retries, timeouts and errors
 * are those every HTTP provider shares (see {@link HttpSettings}); {@link #stream(ChatRequest, StreamListener)}
 * hands out text and each tool call's arguments as they arrive; {@link #countTokens} asks
 * {@code POST /v1/messages/count_tokens}, once, and is empty when that fails or the builder turned it
 * off (callers then estimate locally). The model named here is the one sent, whatever
 * {@link ChatRequest#model()} says: one instance serves one model. Implementations are thread-safe.
 *
 * {@snippet :
 * ChatModel claude = AnthropicChatModel.builder().apiKey(System.getenv("ANTHROPIC_API_KEY"))
 *         .model("claude-sonnet-4-5").build();
 * }
 */
public interface AnthropicChatModel extends ChatModel {
    /** The public API root. */
    URI DEFAULT_BASE_URL = URI.create("https://api.anthropic.com");
    /** The API version header this mapping is written for. */
    String API_VERSION = "2023-06-01";

    /** A builder; set at least the model. */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Configures an {@link AnthropicChatModel}: the settings every HTTP provider takes (the model is
     * required; the API root defaults to {@link #DEFAULT_BASE_URL}, and {@code /v1/messages} is
     * appended), extended thinking, and the count_tokens call. Not thread-safe; the model it builds is.
     */
    final class Builder extends HttpModelBuilder<Builder> {
        private int thinkingBudget;
        private boolean providerTokenCount = true;

        private Builder() {
            super(DEFAULT_BASE_URL);
        }

        /** Turns on extended thinking with this budget of tokens (0 = off, the default). */
        public Builder thinkingBudgetTokens(int tokens) {
            this.thinkingBudget = Math.max(0, tokens);
            return this;
        }

        /** Whether {@link AnthropicChatModel#countTokens} asks the API (default true). */
        public Builder providerTokenCount(boolean enabled) {
            this.providerTokenCount = enabled;
            return this;
        }

        /**
         * The model.
         *
         * @throws IllegalArgumentException when no model is set or the base URL is not absolute
         */
        public AnthropicChatModel build() {
            if (model() == null || model().isBlank()) {
                throw new IllegalArgumentException("an Anthropic model name is required, e.g. claude-sonnet-4-5");
            }
            if (baseUrl().getScheme() == null || baseUrl().getHost() == null) {
                throw new IllegalArgumentException("the base URL must be absolute, e.g. https://api.anthropic.com; was " + baseUrl());
            }
            return new MessagesApiModel(model(), baseUrl(), apiKey(), http(), contextWindowTokens(), thinkingBudget, providerTokenCount);
        }
    }
}
