package dev.threadline.models.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.models.ContextWindows;
import dev.threadline.models.http.Endpoint;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.http.HttpTransport;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import dev.threadline.core.internal.log.Logs;
import org.slf4j.Logger;

/**
 * A {@link ChatModel} on Anthropic's Messages API ({@code POST /v1/messages}), over the JDK HTTP
 * client (see ADR 0009 for why not the SDK). The wire mapping is in {@link AnthropicRequests} and
 * {@link AnthropicResponses}, streaming in {@link AnthropicStream}; retries, timeouts and errors are
 * the shared ones of {@link HttpTransport}. The model named here is the one sent, whatever
 * {@link ChatRequest#model()} says: one instance serves one model. Thread-safe.
 *
 * {@snippet :
 * ChatModel claude = AnthropicChatModel.builder().apiKey(System.getenv("ANTHROPIC_API_KEY"))
 *         .model("claude-sonnet-4-5").build();
 * }
 */
public final class AnthropicChatModel implements ChatModel {
    /** The public API root. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api.anthropic.com");
    /** The API version header this mapping is written for. */
    public static final String API_VERSION = "2023-06-01";
    private static final Logger LOG = Logs.get(AnthropicChatModel.class);

    private final HttpTransport http;
    private final HttpTransport counting;
    private final Map<String, String> headers;
    private final int contextWindow;
    private final int thinkingBudget;
    private final boolean providerTokenCount;

    private AnthropicChatModel(Builder b) {
        Endpoint endpoint = new Endpoint("anthropic", "Anthropic", "ANTHROPIC_API_KEY", b.model, b.baseUrl);
        this.http = new HttpTransport(endpoint, b.http);
        this.counting = new HttpTransport(endpoint, b.http.withRetry(b.http.retry().withMaxAttempts(1)));
        Map<String, String> h = new LinkedHashMap<>();
        if (b.apiKey != null && !b.apiKey.isBlank()) {
            h.put("x-api-key", b.apiKey);
        }
        h.put("anthropic-version", API_VERSION);
        this.headers = Map.copyOf(h);
        this.contextWindow = b.contextWindow > 0 ? b.contextWindow : ContextWindows.anthropic(b.model);
        this.thinkingBudget = b.thinkingBudget;
        this.providerTokenCount = b.providerTokenCount;
    }

    /** A builder; set at least the model. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return http.endpoint().spec();
    }

    @Override
    public int contextWindowTokens() {
        return contextWindow;
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        String body = Json.write(AnthropicRequests.body(request, http.endpoint().model(), thinkingBudget, false));
        return http.postJson("/v1/messages", headers, body, AnthropicResponses::response, this::unreadable);
    }

    @Override
    public ChatResponse stream(ChatRequest request, Consumer<String> listener) {
        Objects.requireNonNull(listener, "listener");
        return stream(request, StreamListener.ofText(listener));
    }

    /** Streams the reply: text and each tool call's arguments reach {@code listener} as the provider sends them. */
    @Override
    public ChatResponse stream(ChatRequest request, StreamListener listener) {
        Objects.requireNonNull(listener, "listener");
        String body = Json.write(AnthropicRequests.body(request, http.endpoint().model(), thinkingBudget, true));
        AnthropicStream stream = new AnthropicStream(http.endpoint(), listener);
        http.stream("/v1/messages", headers, body, stream::accept, this::unreadable);
        return stream.response();
    }

    /**
     * The input tokens of {@code request} by {@code POST /v1/messages/count_tokens}; empty when this
     * model was built without it, or the count fails (callers then estimate locally). Advisory, so
     * one attempt: a failure is not retried.
     */
    @Override
    public OptionalLong countTokens(ChatRequest request) {
        if (!providerTokenCount) {
            return OptionalLong.empty();
        }
        try {
            String body = Json.write(AnthropicRequests.countTokensBody(request, http.endpoint().model()));
            JsonNode n = Json.mapper().readTree(counting.post("/v1/messages/count_tokens", headers, body)).path("input_tokens");
            return n.canConvertToLong() ? OptionalLong.of(n.asLong()) : OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            LOG.debug("count_tokens failed for {}: {}", name(), e.getMessage());
            return OptionalLong.empty();
        }
    }

    private ModelException unreadable(Exception e) {
        return new ModelException("Anthropic sent a reply Threadline cannot read (" + e.getMessage() + "); this is not retried."
                + " If it persists, report it with the model name " + http.endpoint().model() + ".",
                ModelException.Kind.SERVER, false, e);
    }

    /**
     * Configures an {@link AnthropicChatModel}; only the model is required. Not thread-safe; the model it builds is.
     */
    public static final class Builder {
        private String apiKey;
        private String model;
        private URI baseUrl = DEFAULT_BASE_URL;
        private HttpSettings http = HttpSettings.defaults();
        private int contextWindow;
        private int thinkingBudget;
        private boolean providerTokenCount = true;

        private Builder() {}

        /** The key sent as {@code x-api-key}; may be null for a local stand-in that needs none. */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** The model to call, e.g. {@code claude-sonnet-4-5} (required). */
        public Builder model(String model) {
            this.model = model;
            return this;
        }

        /** The API root (default {@link #DEFAULT_BASE_URL}); {@code /v1/messages} is appended. */
        public Builder baseUrl(String baseUrl) {
            this.baseUrl = URI.create(Objects.requireNonNull(baseUrl, "baseUrl"));
            return this;
        }

        /** HTTP client, retries, timeout, sleeper, clock (see {@link HttpSettings}). */
        public Builder http(HttpSettings http) {
            this.http = Objects.requireNonNull(http, "http");
            return this;
        }

        /** Overrides the context window known for the model family (see {@link ContextWindows}). */
        public Builder contextWindowTokens(int tokens) {
            this.contextWindow = tokens;
            return this;
        }

        /** Turns on extended thinking with this budget of tokens (0 = off, the default). */
        public Builder thinkingBudgetTokens(int tokens) {
            this.thinkingBudget = Math.max(0, tokens);
            return this;
        }

        /** Whether {@link #countTokens} asks the API (default true). */
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
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("an Anthropic model name is required, e.g. claude-sonnet-4-5");
            }
            if (baseUrl.getScheme() == null || baseUrl.getHost() == null) {
                throw new IllegalArgumentException("the base URL must be absolute, e.g. https://api.anthropic.com; was " + baseUrl);
            }
            return new AnthropicChatModel(this);
        }
    }
}
