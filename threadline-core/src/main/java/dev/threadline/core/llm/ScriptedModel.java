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
 * Every variant answers compaction's summary requests with a deterministic summary, can be given a
 * small context window ({@link #withContextWindow}) and can record what it is sent ({@link #recording}).
 *
 * Streaming hands out the reply's text word by word, so callers exercise their streaming path.
 * Thread-safe when its script is: the built-in ones are ({@link #replies} hands each reply out once).
 */
public final class ScriptedModel implements ChatModel {
    private final Function<ChatRequest, ChatResponse> script;
    private final int contextWindow;
    private final List<ChatRequest> recorded;

    private ScriptedModel(Function<ChatRequest, ChatResponse> script, int contextWindow, List<ChatRequest> recorded) {
        this.script = Objects.requireNonNull(script, "script");
        this.contextWindow = contextWindow;
        this.recorded = recorded;
    }

    private ScriptedModel(Function<ChatRequest, ChatResponse> script) {
        this(script, 200_000, null);
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

    /** The same script with a context window of {@code tokens} (default 200,000), e.g. to make compaction happen soon. */
    public ScriptedModel withContextWindow(int tokens) {
        dev.threadline.core.error.Require.argument(tokens >= 1, "contextWindow", "must be at least 1 token, was " + tokens);
        return new ScriptedModel(script, tokens, recorded);
    }

    /** The same script, keeping every request it is sent (see {@link #requests()}); for tests. */
    public ScriptedModel recording() {
        return new ScriptedModel(script, contextWindow, java.util.Collections.synchronizedList(new java.util.ArrayList<>()));
    }

    /** The requests received so far, oldest first; empty unless made with {@link #recording()}. */
    public List<ChatRequest> requests() {
        if (recorded == null) {
            return List.of();
        }
        synchronized (recorded) {
            return List.copyOf(recorded);
        }
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public int contextWindowTokens() {
        return contextWindow;
    }

    /**
     * Answers the request with the script; a compaction's summary request ({@link SummaryPrompt}) is
     * answered by a deterministic summary instead, so scripts need not know about compaction.
     */
    @Override
    public ChatResponse complete(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        if (recorded != null) {
            recorded.add(request);
        }
        if (SummaryPrompt.isSummaryRequest(request)) {
            return summarise(request);
        }
        ChatResponse response = script.apply(request);
        if (response == null) {
            throw new ModelException("the script returned no response for a request of " + request.messages().size()
                    + " messages; a script must always return a ChatResponse or throw", false);
        }
        return response;
    }

    /**
     * A bounded, deterministic summary: how many lines and user requests the rendered part holds,
     * whether it followed an earlier summary, and the latest three user requests.
     */
    static ChatResponse summarise(ChatRequest request) {
        String text = request.messages().isEmpty() ? "" : request.messages().getLast().text();
        List<String> users = text.lines().filter(l -> l.startsWith("[user] ")).map(l -> l.substring(7)).toList();
        long lines = text.lines().filter(l -> l.startsWith("[")).count();
        StringBuilder sb = new StringBuilder("Summary of ").append(lines).append(" earlier lines with ")
                .append(users.size()).append(" user requests");
        if (text.contains("<previous_summary>")) {
            sb.append(", following an earlier summary");
        }
        sb.append('.');
        List<String> latest = users.subList(Math.max(0, users.size() - 3), users.size());
        if (!latest.isEmpty()) {
            sb.append(" Latest requests: ");
            sb.append(String.join("; ", latest.stream().map(u -> "\"" + (u.length() > 60 ? u.substring(0, 57) + "..." : u) + "\"").toList()));
            sb.append('.');
        }
        String summary = sb.toString();
        long in = (request.system().length() + text.length()) / 4;
        return new ChatResponse(List.of(ContentBlock.text(summary)), StopReason.END_TURN,
                Usage.of(Math.max(1, in), Math.max(1, summary.length() / 4)));
    }

    @Override
    public ChatResponse stream(ChatRequest request, Consumer<String> listener) {
        return stream(request, StreamListener.ofText(listener));
    }

    /** Streams the reply's text word by word, then each tool call's arguments in pieces of up to 8 characters. */
    @Override
    public ChatResponse stream(ChatRequest request, StreamListener listener) {
        ChatResponse response = complete(request);
        String text = response.text();
        int start = 0;
        for (int i = 1; i <= text.length(); i++) {
            if (i == text.length() || (text.charAt(i) == ' ' && text.charAt(i - 1) != ' ')) {
                listener.onText(text.substring(start, i));
                start = i;
            }
        }
        for (ContentBlock block : response.content()) {
            if (block instanceof ContentBlock.ToolUse use) {
                String json = dev.threadline.core.json.Json.write(use.input());
                for (int i = 0; i < json.length(); i += 8) {
                    listener.onToolInput(use.id(), use.name(), json.substring(i, Math.min(json.length(), i + 8)));
                }
            }
        }
        return response;
    }
}
