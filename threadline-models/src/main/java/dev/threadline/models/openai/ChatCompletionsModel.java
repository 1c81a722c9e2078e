package dev.threadline.models.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.internal.ContextWindows;
import dev.threadline.models.internal.Endpoint;
import dev.threadline.models.internal.HttpChatModel;
import java.net.URI;
import java.util.Map;

/**
 * The {@link OpenAiChatModel} the builder makes: the Chat Completions wire format ({@link OpenAiRequests},
 * {@link OpenAiResponses}, {@link OpenAiStream}) on the shared {@link HttpChatModel}. Thread-safe: it
 * holds only immutable configuration.
 */
final class ChatCompletionsModel extends HttpChatModel implements OpenAiChatModel {
    private final String maxTokensField;

    ChatCompletionsModel(String model, URI baseUrl, String apiKey, HttpSettings http, int contextWindowTokens, String maxTokensField) {
        super(new Endpoint("openai", official(baseUrl) ? "OpenAI" : "the OpenAI-compatible server", "OPENAI_API_KEY", model, baseUrl),
                http, "/chat/completions",
                apiKey != null && !apiKey.isBlank() ? Map.of("authorization", "Bearer " + apiKey) : Map.of(),
                contextWindowTokens > 0 ? contextWindowTokens : ContextWindows.openAi(model));
        this.maxTokensField = maxTokensField != null ? maxTokensField : official(baseUrl) ? "max_completion_tokens" : "max_tokens";
    }

    /** Whether {@code baseUrl} is OpenAI itself rather than a compatible server. */
    private static boolean official(URI baseUrl) {
        return baseUrl.getHost() != null && baseUrl.getHost().equalsIgnoreCase(DEFAULT_BASE_URL.getHost());
    }

    @Override
    protected JsonNode body(ChatRequest request, boolean stream) {
        return OpenAiRequests.body(request, endpoint().model(), maxTokensField, stream);
    }

    @Override
    protected ChatResponse response(JsonNode answer) {
        return OpenAiResponses.response(answer);
    }

    @Override
    protected StreamedReply streamedReply(StreamListener listener) {
        return new OpenAiStream(endpoint(), listener);
    }

    @Override
    protected ModelException unreadable(Exception e) {
        return new ModelException(endpoint().displayName() + " at " + endpoint().baseUrl() + " sent a reply Threadline"
                + " cannot read (" + e.getMessage() + "); this is not retried. Is it an OpenAI-compatible /chat/completions API?",
                ModelException.Kind.SERVER, false, e);
    }
}
