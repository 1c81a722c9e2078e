package dev.threadline.core.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A deterministic {@link ChatModel} for tests and the offline demo: its replies come from a script,
 * a function of the request, instead of a provider.
 *
 * <ul>
 *   <li>{@link #of} runs any function of the request;</li>
 *   <li>{@link #replies} returns fixed replies in order, then fails with "script exhausted";</li>
 *   <li>{@link #demo} is a small rules-based assistant that uses the built-in skills (see {@link DemoScript}).</li>
 * </ul>
 *
 * Streaming hands out the reply's text word by word, so callers exercise their streaming path.
 */
public final class ScriptedModel implements ChatModel {
    private final Function<ChatRequest, ChatResponse> script;

    private ScriptedModel(Function<ChatRequest, ChatResponse> script) {
        this.script = Objects.requireNonNull(script, "script");
    }

    /** A model that answers each request with {@code script.apply(request)}. */
    public static ScriptedModel of(Function<ChatRequest, ChatResponse> script) {
        return new ScriptedModel(script);
    }

    /**
     * A model that answers the n-th request with {@code replies[n]}, whatever it asks, and fails with
     * a {@link ModelException} once they are used up. Thread-safe: each reply is handed out once.
     */
    public static ScriptedModel replies(ChatResponse... replies) {
        List<ChatResponse> list = List.of(replies);
        AtomicInteger next = new AtomicInteger();
        return new ScriptedModel(request -> {
            int i = next.getAndIncrement();
            if (i >= list.size()) {
                throw new ModelException("script exhausted: all " + list.size() + " scripted replies were used and call "
                        + (i + 1) + " has none; add more replies to the script", false);
            }
            return list.get(i);
        });
    }

    /** The offline demo: a rules-based assistant for the built-in skills, no real LLM. */
    public static ScriptedModel demo() {
        return new ScriptedModel(new DemoScript());
    }

    /** A reply that ends the turn with {@code text}. */
    public static ChatResponse text(String text) {
        return new ChatResponse(List.of(ContentBlock.text(text)), StopReason.END_TURN, Usage.ZERO);
    }

    /** A reply that calls skill {@code name} with {@code inputJson} under tool_use id {@code id}. */
    public static ChatResponse toolUse(String id, String name, String inputJson) {
        JsonNode input = Json.parse(inputJson, "tool_use.input");
        return new ChatResponse(List.of(new ContentBlock.ToolUse(id, name, input)), StopReason.TOOL_USE, Usage.ZERO);
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        ChatResponse response = script.apply(request);
        if (response == null) {
            throw new ModelException("the script returned no response for a request of " + request.messages().size()
                    + " messages; a script must always return a ChatResponse or throw", false);
        }
        return response;
    }

    @Override
    public ChatResponse stream(ChatRequest request, Consumer<String> listener) {
        ChatResponse response = complete(request);
        String text = response.text();
        int start = 0;
        for (int i = 1; i <= text.length(); i++) {
            if (i == text.length() || (text.charAt(i) == ' ' && text.charAt(i - 1) != ' ')) {
                listener.accept(text.substring(start, i));
                start = i;
            }
        }
        return response;
    }
}
