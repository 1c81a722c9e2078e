package dev.threadline.core.llm;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Hears a model reply while it is produced: pieces of its text and pieces of the JSON arguments of
 * the tool calls it makes. The pieces of one call's arguments, concatenated in order, are that call's
 * complete input JSON as the provider sent it (a reply that is cut off may end mid-call; such a call
 * is not in the returned {@link ChatResponse}). Called on the thread that called
 * {@link ChatModel#stream(ChatRequest, StreamListener)}, in order; implementations need not be
 * thread-safe but must return promptly. Not a functional interface (it has two methods), so a lambda
 * passed to {@code stream} always means the text-only overload.
 */
public interface StreamListener {

    /**
     * A piece of the reply's text.
     *
     * @param text the new text (append it to what came before)
     */
    void onText(String text);

    /**
     * A piece of a tool call's JSON arguments.
     *
     * @param toolUseId   the call's tool_use id
     * @param toolName    the tool the call is for
     * @param partialJson the next characters of the call's input JSON
     */
    void onToolInput(String toolUseId, String toolName, String partialJson);

    /**
     * A listener that hears only text, passing it to {@code text}.
     *
     * @throws NullPointerException when {@code text} is null
     */
    static StreamListener ofText(Consumer<String> text) {
        Objects.requireNonNull(text, "text");
        return new StreamListener() {
            @Override
            public void onText(String piece) {
                text.accept(piece);
            }

            @Override
            public void onToolInput(String toolUseId, String toolName, String partialJson) {}
        };
    }
}
