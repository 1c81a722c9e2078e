package dev.threadline.models.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Assembles a streamed Messages API reply from its server-sent events: {@code message_start} (usage
 * so far), {@code content_block_start}/{@code _delta}/{@code _stop} (text_delta, input_json_delta,
 * thinking_delta, signature_delta), {@code message_delta} (stop reason, final usage),
 * {@code message_stop}, {@code ping}, {@code error}. Text goes to the listener as it arrives.
 *
 * <p>Never a half-written tool call: a tool_use whose block was never closed is dropped, and so is,
 * at max_tokens, one whose input JSON is incomplete or which is the last block. A closed block whose
 * input is not a JSON object otherwise keeps it as {@code {"_raw": ...}} (see {@link Replies}).
 */
final class AnthropicStream implements HttpChatModel.StreamedReply {
    private final Endpoint endpoint;
    private final StreamListener listener;
    private final TreeMap<Integer, Block> blocks = new TreeMap<>();
    private Usage usage = Usage.ZERO;
    private String stopReason;
    private boolean stopped;

    /** One content block being assembled. */
    private static final class Block {
        final String type;
        final JsonNode start;
        final StringBuilder text = new StringBuilder();
        String signature;
        boolean closed;

        Block(String type, JsonNode start) {
            this.type = type;
            this.start = start;
        }
    }

    AnthropicStream(Endpoint endpoint, StreamListener listener) {
        this.endpoint = endpoint;
        this.listener = listener;
    }

    /** Handles one event; false once the message is complete. */
    @Override
    public boolean accept(SseReader.Event event) {
        JsonNode data = Json.parse(event.data(), "stream event");
        String type = data.path("type").asText(event.type());
        switch (type) {
            case "message_start" -> usage = AnthropicResponses.usage(data.path("message").path("usage"), usage);
            case "content_block_start" -> {
                JsonNode cb = data.path("content_block");
                Block b = new Block(cb.path("type").asText(""), cb);
                b.text.append(cb.path(b.type.equals("thinking") ? "thinking" : "text").asText(""));
                if (b.type.equals("text") && !b.text.isEmpty()) {
                    listener.onText(b.text.toString());
                }
                b.signature = cb.path("signature").asText(null);
                blocks.put(data.path("index").asInt(), b);
            }
            case "content_block_delta" -> delta(blocks.get(data.path("index").asInt()), data.path("delta"));
            case "content_block_stop" -> {
                Block b = blocks.get(data.path("index").asInt());
                if (b != null) {
                    b.closed = true;
                }
            }
            case "message_delta" -> {
                stopReason = data.path("delta").path("stop_reason").asText(stopReason);
                usage = AnthropicResponses.usage(data.path("usage"), usage);
            }
            case "message_stop" -> stopped = true;
            case "error" -> throw ModelErrors.ofStreamError(endpoint, data.path("error"));
            default -> { } // ping and event types added later
        }
        return !stopped;
    }

    private void delta(Block b, JsonNode delta) {
        if (b == null) {
            return;
        }
        switch (delta.path("type").asText("")) {
            case "text_delta" -> {
                String text = delta.path("text").asText("");
                b.text.append(text);
                if (!text.isEmpty()) {
                    listener.onText(text);
                }
            }
            case "input_json_delta" -> {
                String piece = delta.path("partial_json").asText("");
                b.text.append(piece);
                if (!piece.isEmpty() && b.type.equals("tool_use")) {
                    listener.onToolInput(b.start.path("id").asText(), b.start.path("name").asText(), piece);
                }
            }
            case "thinking_delta" -> b.text.append(delta.path("thinking").asText(""));
            case "signature_delta" -> b.signature = delta.path("signature").asText(b.signature);
            default -> { } // citations and deltas added later
        }
    }

    /** The reply, once the stream is over; a stream cut before {@code message_stop} is a retryable network error. */
    @Override
    public ChatResponse response() {
        if (!stopped) {
            throw new ModelException(endpoint.displayName() + "'s stream ended before message_stop (the connection was cut);"
                    + " nothing of this reply was recorded: try again", ModelException.Kind.NETWORK, true);
        }
        StopReason stop = AnthropicResponses.stopReason(stopReason);
        List<ContentBlock> out = new ArrayList<>();
        for (Block b : blocks.values()) {
            switch (b.type) {
                case "text" -> out.add(ContentBlock.text(b.text.toString()));
                case "thinking" -> out.add(new ContentBlock.Thinking(b.text.toString(), b.signature));
                case "redacted_thinking" -> out.add(new ContentBlock.Thinking("",
                        AnthropicRequests.REDACTED + b.start.path("data").asText("")));
                case "tool_use" -> {
                    JsonNode input = Replies.parseObject(b.text.isEmpty() ? "{}" : b.text.toString());
                    if (b.closed && input != null) {
                        out.add(new ContentBlock.ToolUse(b.start.path("id").asText(), b.start.path("name").asText(), input));
                    } else if (b.closed && stop != StopReason.MAX_TOKENS) {
                        out.add(new ContentBlock.ToolUse(b.start.path("id").asText(), b.start.path("name").asText(),
                                Replies.toolInput(b.text.toString())));
                    } // else: cut off while being written, dropped
                }
                default -> { } // server tool blocks are not part of Threadline's transcript
            }
        }
        return new ChatResponse(Replies.withoutCutOffToolUse(out, stop), stop, usage);
    }
}
