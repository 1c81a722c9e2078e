package dev.threadline.models.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.StreamListener;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.models.internal.Endpoint;
import dev.threadline.models.internal.HttpChatModel;
import dev.threadline.models.internal.ModelErrors;
import dev.threadline.models.internal.Replies;
import dev.threadline.models.internal.SseReader;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Assembles a streamed Chat Completions reply from its {@code data:} chunks: {@code delta.content}
 * goes to the listener as it arrives, {@code delta.tool_calls} fragments are joined by their
 * {@code index} (id and name come once, arguments in pieces), {@code finish_reason} and the last
 * chunk's {@code usage} (asked for with {@code stream_options.include_usage}) are kept, and
 * {@code data: [DONE]} ends it. A chunk with an {@code error} fails the call. At finish_reason
 * {@code length} the tool call being written (the last one) is dropped: never a half-written call.
 */
final class OpenAiStream implements HttpChatModel.StreamedReply {
    private final Endpoint endpoint;
    private final StreamListener listener;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final TreeMap<Integer, Call> calls = new TreeMap<>();
    private String finishReason;
    private boolean refused;
    private Usage usage = Usage.ZERO;
    private boolean done;

    /** One tool call being assembled. */
    private static final class Call {
        String id = "";
        String name = "";
        final StringBuilder arguments = new StringBuilder();
    }

    OpenAiStream(Endpoint endpoint, StreamListener listener) {
        this.endpoint = endpoint;
        this.listener = listener;
    }

    /** Handles one chunk; false once the stream is done. */
    @Override
    public boolean accept(SseReader.Event event) {
        if (event.data().strip().equals("[DONE]")) {
            done = true;
            return false;
        }
        JsonNode chunk = Json.parse(event.data(), "stream chunk");
        if (chunk.has("error")) {
            JsonNode error = chunk.get("error");
            int status = error.path("code").canConvertToInt() ? error.path("code").asInt()
                    : error.path("type").asText("").equals("invalid_request_error") ? 400 : 500;
            throw ModelErrors.ofStatus(endpoint, status, Json.write(chunk));
        }
        if (chunk.path("usage").isObject()) {
            usage = OpenAiResponses.usage(chunk.get("usage"));
        }
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("index").asInt(0) != 0) {
                continue;
            }
            JsonNode delta = choice.path("delta");
            String piece = delta.path("content").isTextual() ? delta.path("content").asText() : "";
            if (!piece.isEmpty()) {
                text.append(piece);
                listener.onText(piece);
            }
            String refusal = delta.path("refusal").isTextual() ? delta.path("refusal").asText() : "";
            if (!refusal.isEmpty()) {
                refused = true;
                text.append(refusal);
            }
            reasoning.append(delta.path("reasoning_content").isTextual() ? delta.path("reasoning_content").asText() : "");
            for (JsonNode fragment : delta.path("tool_calls")) {
                Call call = calls.computeIfAbsent(fragment.path("index").asInt(calls.size()), i -> new Call());
                call.id = fragment.path("id").isTextual() && !fragment.path("id").asText().isEmpty() ? fragment.path("id").asText() : call.id;
                JsonNode fn = fragment.path("function");
                call.name = fn.path("name").isTextual() && !fn.path("name").asText().isEmpty() ? fn.path("name").asText() : call.name;
                String fragmentArgs = fn.path("arguments").isTextual() ? fn.path("arguments").asText()
                        : fn.path("arguments").isObject() ? fn.path("arguments").toString() : "";
                call.arguments.append(fragmentArgs);
                if (!fragmentArgs.isEmpty()) {
                    listener.onToolInput(call.id, call.name, fragmentArgs);
                }
            }
            if (choice.path("finish_reason").isTextual()) {
                finishReason = choice.path("finish_reason").asText();
            }
        }
        return true;
    }

    /** The reply; a stream that ended before {@code [DONE]} and without a finish_reason is a retryable network error. */
    @Override
    public ChatResponse response() {
        if (!done && finishReason == null) {
            throw new ModelException(endpoint.displayName() + "'s stream ended before [DONE] (the connection was cut);"
                    + " nothing of this reply was recorded: try again", ModelException.Kind.NETWORK, true);
        }
        List<ContentBlock> blocks = new ArrayList<>();
        if (!reasoning.isEmpty()) {
            blocks.add(new ContentBlock.Thinking(reasoning.toString(), null));
        }
        if (!text.isEmpty()) {
            blocks.add(ContentBlock.text(text.toString()));
        }
        for (Call c : calls.values()) {
            blocks.add(OpenAiResponses.toolUse(c.id, c.name, TextNode.valueOf(c.arguments.toString())));
        }
        StopReason stop = OpenAiResponses.stopReason(finishReason, !calls.isEmpty(), refused);
        return new ChatResponse(Replies.withoutCutOffToolUse(blocks, stop), stop, usage);
    }
}
