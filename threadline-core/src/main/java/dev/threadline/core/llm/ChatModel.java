package dev.threadline.core.llm;

/**
 * The model SPI: one request (system prompt, transcript view, tools, limits) in, one assistant reply
 * (content blocks, stop reason, usage) out. Implementations are thread-safe and hold no session state.
 *
 * <p>A call is cancelled by interrupting the thread it runs on (an interrupted turn does so, see
 * {@code Session.interrupt()}): an implementation should then stop waiting, release what it holds
 * (close its connection) and throw a {@link ModelException} of kind {@link ModelException.Kind#CANCELLED}.
 * One that goes on is abandoned: the turn ends without its answer and nothing it streams is heard.
 */
public interface ChatModel {

    /** A short name for logs and banners, e.g. {@code scripted} or {@code anthropic:claude-...}. */
    String name();

    /**
     * Produces the next assistant message.
     *
     * @throws ModelException when the provider fails; its message says what happened and what to do
     */
    ChatResponse complete(ChatRequest request);

    /** The model's context window in tokens: what context policies measure the transcript against. */
    default int contextWindowTokens() {
        return 200_000;
    }

    /**
     * The provider's own count of the input tokens of {@code request}, where it offers one (e.g.
     * Anthropic's count_tokens endpoint); empty when it does not, and callers fall back to a local
     * tokenizer.
     */
    default java.util.OptionalLong countTokens(ChatRequest request) {
        return java.util.OptionalLong.empty();
    }

    /**
     * Streams the reply: {@code listener} receives text as it is produced; the complete response is
     * returned at the end. The default produces the whole reply at once.
     *
     * @throws ModelException when the provider fails
     */
    default ChatResponse stream(ChatRequest request, java.util.function.Consumer<String> listener) {
        ChatResponse r = complete(request);
        String text = r.text();
        if (!text.isEmpty()) {
            listener.accept(text);
        }
        return r;
    }

    /**
     * Streams the reply with its tool calls: {@code listener} receives text and each tool call's
     * argument JSON as they are produced; the complete response is returned at the end. The default
     * streams the text through {@link #stream(ChatRequest, java.util.function.Consumer)} and then gives
     * each tool call's whole arguments at once; providers that stream arguments override it.
     *
     * @throws ModelException when the provider fails
     */
    default ChatResponse stream(ChatRequest request, StreamListener listener) {
        ChatResponse r = stream(request, (java.util.function.Consumer<String>) listener::onText);
        for (dev.threadline.core.model.ContentBlock block : r.content()) {
            if (block instanceof dev.threadline.core.model.ContentBlock.ToolUse use) {
                listener.onToolInput(use.id(), use.name(), dev.threadline.core.json.Json.write(use.input()));
            }
        }
        return r;
    }
}
