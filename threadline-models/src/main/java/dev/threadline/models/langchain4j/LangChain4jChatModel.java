package dev.threadline.models.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelException.Kind;
import dev.threadline.models.internal.ModelErrors;
import java.util.Objects;

/**
 * Lets any LangChain4j {@link dev.langchain4j.model.chat.ChatModel} (its OpenAI, Anthropic, Gemini,
 * Bedrock, Ollama, ... integrations) serve as a Threadline {@link ChatModel}. Messages, tools and
 * results are mapped by {@link LangChain4jMessages}, schemas by {@link JsonSchemas}; LangChain4j's
 * exceptions become {@link ModelException}s of the matching kind. Retries are left to the wrapped
 * model, which has its own. Streaming hands out the whole reply at once (the SPI's default).
 *
 * {@snippet :
 * ChatModel model = new LangChain4jChatModel("gemini", geminiChatModel, 1_000_000);
 * }
 */
public final class LangChain4jChatModel implements ChatModel {
    private final String name;
    private final dev.langchain4j.model.chat.ChatModel delegate;
    private final int contextWindow;

    /**
     * A Threadline model calling a LangChain4j {@code ChatModel}.
     *
     * @param name          what to call it in logs and banners ({@code langchain4j:NAME})
     * @param delegate      the LangChain4j model
     * @param contextWindow its context window in tokens
     */
    public LangChain4jChatModel(String name, dev.langchain4j.model.chat.ChatModel delegate, int contextWindow) {
        this.name = "langchain4j:" + Objects.requireNonNull(name, "name");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        if (contextWindow < 1) {
            throw new IllegalArgumentException("contextWindow must be positive, was " + contextWindow);
        }
        this.contextWindow = contextWindow;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int contextWindowTokens() {
        return contextWindow;
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        dev.langchain4j.model.chat.request.ChatRequest.Builder b = dev.langchain4j.model.chat.request.ChatRequest.builder()
                .messages(LangChain4jMessages.messages(request)).maxOutputTokens(request.maxTokens());
        if (!request.tools().isEmpty()) {
            b.toolSpecifications(LangChain4jMessages.tools(request.tools()));
        }
        dev.langchain4j.model.chat.response.ChatResponse response;
        try {
            response = delegate.chat(b.build());
        } catch (LangChain4jException e) {
            throw translate(e);
        } catch (RuntimeException e) {
            throw new ModelException(name + " failed: " + e, Kind.OTHER, false, e);
        }
        if (response == null || response.aiMessage() == null) {
            throw new ModelException(name + " returned no message", Kind.SERVER, false);
        }
        return LangChain4jMessages.response(response);
    }

    /** LangChain4j's exception as a {@link ModelException} of the matching kind. */
    ModelException translate(LangChain4jException e) {
        String what = name + " failed: " + e.getMessage();
        Throwable cause = e.getCause();
        if (e instanceof HttpException || cause instanceof HttpException) {
            HttpException h = e instanceof HttpException x ? x : (HttpException) cause;
            Kind kind = ModelErrors.kindOf(h.statusCode(), h.getMessage());
            return new ModelException(what + " (HTTP " + h.statusCode() + ")", kind, ModelErrors.retryable(kind), e);
        }
        Kind kind = switch (e) {
            case AuthenticationException a -> Kind.AUTH;
            case ModelNotFoundException n -> Kind.NOT_FOUND;
            case RateLimitException r -> Kind.RATE_LIMITED;
            case TimeoutException t -> Kind.TIMEOUT;
            case InternalServerException s -> Kind.SERVER;
            case ContentFilteredException c -> Kind.BAD_REQUEST;
            case InvalidRequestException i -> contextTooLong(e.getMessage()) ? Kind.CONTEXT_TOO_LONG : Kind.BAD_REQUEST;
            case RetriableException r -> Kind.SERVER;
            default -> Kind.OTHER;
        };
        return new ModelException(what, kind, ModelErrors.retryable(kind), e);
    }

    private static boolean contextTooLong(String message) {
        return message != null && message.toLowerCase(java.util.Locale.ROOT)
                .matches("(?s).*(context length|context window|context_length_exceeded|too long|too many tokens).*");
    }
}
