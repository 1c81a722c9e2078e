package dev.threadline.models.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.models.http.HttpSettings;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The base of the HTTP providers: one POST per call to one path of one endpoint, through the shared
 * {@link HttpTransport} (retries, timeouts, errors), as a whole reply or as server-sent events. A
 * provider adds only its wire format: the request body, how to read a reply, how to assemble a
 * streamed one, and what to say when a reply cannot be read. The model sent is the one the provider
 * was built with, whatever {@link ChatRequest#model()} says. Thread-safe when the subclass is (the
 * providers hold only immutable configuration).
 */
public abstract class HttpChatModel implements ChatModel {
    private final HttpTransport http;
    private final String path;
    private final Map<String, String> headers;
    private final int contextWindow;

    /**
     * A model that POSTs to {@code path} under the endpoint's base URL with {@code headers} (which
     * may hold the API key: they are never logged).
     */
    protected HttpChatModel(Endpoint endpoint, HttpSettings settings, String path, Map<String, String> headers,
                            int contextWindow) {
        this.http = new HttpTransport(endpoint, settings);
        this.path = Objects.requireNonNull(path, "path");
        this.headers = Map.copyOf(headers);
        this.contextWindow = contextWindow;
    }

    /** The request body for {@code request}; {@code stream} asks for server-sent events. */
    protected abstract JsonNode body(ChatRequest request, boolean stream);

    /** The reply read from a whole (not streamed) answer. */
    protected abstract ChatResponse response(JsonNode answer);

    /** A fresh assembler for one streamed reply, handing text (and tool input) to {@code listener}. */
    protected abstract StreamedReply streamedReply(StreamListener listener);

    /** The error for an answer that is not what this wire format expects (not retried). */
    protected abstract ModelException unreadable(Exception cause);

    /** The endpoint calls go to. */
    protected final Endpoint endpoint() {
        return http.endpoint();
    }

    /** The headers every call sends. */
    protected final Map<String, String> headers() {
        return headers;
    }

    @Override
    public final String name() {
        return endpoint().spec();
    }

    @Override
    public final int contextWindowTokens() {
        return contextWindow;
    }

    @Override
    public final ChatResponse complete(ChatRequest request) {
        return http.postJson(path, headers, Json.write(body(request, false)), this::response, this::unreadable);
    }

    @Override
    public final ChatResponse stream(ChatRequest request, Consumer<String> listener) {
        Objects.requireNonNull(listener, "listener");
        return stream(request, StreamListener.ofText(listener));
    }

    /** Streams the reply: text and each tool call's arguments reach {@code listener} as the provider sends them. */
    @Override
    public final ChatResponse stream(ChatRequest request, StreamListener listener) {
        Objects.requireNonNull(listener, "listener");
        String body = Json.write(body(request, true));
        StreamedReply reply = streamedReply(listener);
        http.stream(path, headers, body, reply::accept, this::unreadable);
        return reply.response();
    }

    /** Assembles one streamed reply from its events. Used by one call, on its thread. */
    public interface StreamedReply {
        /** Handles one event; false once the reply is complete. */
        boolean accept(SseReader.Event event);

        /**
         * The whole reply, once the stream is over.
         *
         * @throws ModelException when the stream ended before the reply did
         */
        ChatResponse response();
    }
}
