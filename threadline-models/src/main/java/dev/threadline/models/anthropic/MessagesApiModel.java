package dev.threadline.models.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.core.log.Logs;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.internal.ContextWindows;
import dev.threadline.models.internal.Endpoint;
import dev.threadline.models.internal.HttpChatModel;
import dev.threadline.models.internal.HttpTransport;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;

/**
 * The {@link AnthropicChatModel} the builder makes: the Messages API wire format ({@link AnthropicRequests},
 * {@link AnthropicResponses}, {@link AnthropicStream}) on the shared {@link HttpChatModel}, and the
 * count_tokens call. Thread-safe: it holds only immutable configuration.
 */
final class MessagesApiModel extends HttpChatModel implements AnthropicChatModel {
    private static final Logger LOG = Logs.get(AnthropicChatModel.class); // the category users configure

    private final HttpTransport counting;
    private final int thinkingBudget;
    private final boolean providerTokenCount;

    MessagesApiModel(String model, URI baseUrl, String apiKey, HttpSettings http, int contextWindowTokens, int thinkingBudget,
                     boolean providerTokenCount) {
        super(new Endpoint("anthropic", "Anthropic", "ANTHROPIC_API_KEY", model, baseUrl), http, "/v1/messages", headers(apiKey),
                contextWindowTokens > 0 ? contextWindowTokens : ContextWindows.anthropic(model));
        this.counting = new HttpTransport(endpoint(), http.withRetry(http.retry().withMaxAttempts(1)));
        this.thinkingBudget = thinkingBudget;
        this.providerTokenCount = providerTokenCount;
    }

    private static Map<String, String> headers(String apiKey) {
        Map<String, String> h = new LinkedHashMap<>();
        if (apiKey != null && !apiKey.isBlank()) {
            h.put("x-api-key", apiKey);
        }
        h.put("anthropic-version", API_VERSION);
        return h;
    }

    @Override
    protected JsonNode body(ChatRequest request, boolean stream) {
        return AnthropicRequests.body(request, endpoint().model(), thinkingBudget, stream);
    }

    @Override
    protected ChatResponse response(JsonNode answer) {
        return AnthropicResponses.response(answer);
    }

    @Override
    protected StreamedReply streamedReply(StreamListener listener) {
        return new AnthropicStream(endpoint(), listener);
    }

    @Override
    protected ModelException unreadable(Exception e) {
        return new ModelException("Anthropic sent a reply Threadline cannot read (" + e.getMessage() + "); this is not retried."
                + " If it persists, report it with the model name " + endpoint().model() + ".",
                ModelException.Kind.SERVER, false, e);
    }

    /** The input tokens by {@code POST /v1/messages/count_tokens}; one attempt, advisory: empty on any failure. */
    @Override
    public OptionalLong countTokens(ChatRequest request) {
        if (!providerTokenCount) {
            return OptionalLong.empty();
        }
        try {
            String body = Json.write(AnthropicRequests.countTokensBody(request, endpoint().model()));
            JsonNode n = Json.mapper().readTree(counting.post("/v1/messages/count_tokens", headers(), body)).path("input_tokens");
            return n.canConvertToLong() ? OptionalLong.of(n.asLong()) : OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            LOG.debug("count_tokens failed for {}: {}", name(), e.getMessage());
            return OptionalLong.empty();
        }
    }
}
