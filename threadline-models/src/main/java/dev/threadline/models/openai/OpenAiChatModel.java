package dev.threadline.models.openai;

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
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link ChatModel} on an OpenAI-compatible Chat Completions API ({@code POST {baseUrl}/chat/completions}):
 * OpenAI itself, or a local server such as Ollama ({@code http://127.0.0.1:11434/v1}), vLLM
 * ({@code http://127.0.0.1:8000/v1}) or llama.cpp's {@code llama-server} ({@code http://127.0.0.1:8080/v1}).
 * The API key is optional (local servers need none). Mapping in {@link OpenAiRequests} and
 * {@link OpenAiResponses}, streaming in {@link OpenAiStream}; retries, timeouts and errors are the
 * shared ones of {@link HttpTransport}. The model named here is the one sent, whatever
 * {@link ChatRequest#model()} says. Thread-safe.
 *
 * <p>The output limit goes in {@code max_completion_tokens} for OpenAI itself (its reasoning models
 * refuse {@code max_tokens}) and in {@code max_tokens} for other servers, which all know that one;
 * {@link Builder#maxTokensField} overrides the choice.
 */
public final class OpenAiChatModel implements ChatModel {
    /** OpenAI's API root. */
    public static final URI DEFAULT_BASE_URL = URI.create("https://api.openai.com/v1");

    private final HttpTransport http;
    private final Map<String, String> headers;
    private final int contextWindow;
    private final String maxTokensField;

    private OpenAiChatModel(Builder b) {
        boolean official = b.baseUrl.getHost() != null && b.baseUrl.getHost().equalsIgnoreCase(DEFAULT_BASE_URL.getHost());
        Endpoint endpoint = new Endpoint("openai", official ? "OpenAI" : "the OpenAI-compatible server", "OPENAI_API_KEY",
                b.model, b.baseUrl);
        this.http = new HttpTransport(endpoint, b.http);
        Map<String, String> h = new LinkedHashMap<>();
        if (b.apiKey != null && !b.apiKey.isBlank()) {
            h.put("authorization", "Bearer " + b.apiKey);
        }
        this.headers = Map.copyOf(h);
        this.contextWindow = b.contextWindow > 0 ? b.contextWindow : ContextWindows.openAi(b.model);
        this.maxTokensField = b.maxTokensField != null ? b.maxTokensField : official ? "max_completion_tokens" : "max_tokens";
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
        String body = Json.write(OpenAiRequests.body(request, http.endpoint().model(), maxTokensField, false));
        return http.postJson("/chat/completions", headers, body, OpenAiResponses::response, this::unreadable);
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
        String body = Json.write(OpenAiRequests.body(request, http.endpoint().model(), maxTokensField, true));
        OpenAiStream stream = new OpenAiStream(http.endpoint(), listener);
        http.stream("/chat/completions", headers, body, stream::accept, this::unreadable);
        return stream.response();
    }

    private ModelException unreadable(Exception e) {
        return new ModelException(http.endpoint().displayName() + " at " + http.endpoint().baseUrl() + " sent a reply Threadline"
                + " cannot read (" + e.getMessage() + "); this is not retried. Is it an OpenAI-compatible /chat/completions API?",
                ModelException.Kind.SERVER, false, e);
    }

    /** Configures an {@link OpenAiChatModel}; only the model is required. Not thread-safe; the model it builds is. */
    public static final class Builder {
        private String apiKey;
        private String model;
        private URI baseUrl = DEFAULT_BASE_URL;
        private HttpSettings http = HttpSettings.defaults();
        private int contextWindow;
        private String maxTokensField;

        private Builder() {}

        /** Sent as {@code Authorization: Bearer ...}; null or blank sends none (local servers). */
        public Builder apiKey(String apiKey) {
            this.apiKey = apiKey;
            return this;
        }

        /** The model to call, e.g. {@code gpt-4o-mini} or a local server's model name (required). */
        public Builder model(String model) {
            this.model = model;
            return this;
        }

        /** The API root including its version path, e.g. {@code http://127.0.0.1:11434/v1}. */
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

        /** {@code max_tokens} or {@code max_completion_tokens} (default: by server, see the class doc). */
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
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("an OpenAI-compatible model name is required, e.g. gpt-4o-mini or llama3.1");
            }
            if (baseUrl.getScheme() == null || baseUrl.getHost() == null) {
                throw new IllegalArgumentException("the base URL must be absolute, e.g. http://127.0.0.1:11434/v1; was " + baseUrl);
            }
            return new OpenAiChatModel(this);
        }
    }
}
