package dev.threadline.core.llm;

import dev.threadline.core.error.Require;
import dev.threadline.core.model.Message;
import java.util.List;

/**
 * Counts tokens as a model would see them: one message, or the whole input of a request (system
 * prompt, tool definitions, messages). Context policies measure views with it; the runtime compares
 * the result with the model's window ({@link ChatModel#contextWindowTokens()}).
 *
 * <p>Two kinds exist. A local tokenizer ({@link #approximate()}, jtokkit's {@code o200k_base}) is
 * fast and offline, exact for OpenAI's recent models and an approximation for every other family
 * (Claude, Llama, Gemini, ... use their own vocabularies; expect counts within roughly 10-20%).
 * A provider count ({@link #of(ChatModel, TokenCounter)}) asks the model's API where it offers one
 * ({@link ChatModel#countTokens}) and falls back to the local tokenizer where it does not; it counts
 * whole requests only, messages are always counted locally. Implementations are thread-safe.
 */
public interface TokenCounter {

    /** What counts, for logs and {@code /usage}: e.g. {@code o200k_base (jtokkit, approximate)}. */
    String name();

    /** Tokens of a plain text, without any framing. */
    long count(String text);

    /**
     * Tokens one message adds to a request: its blocks plus the provider's per-message framing. Must be a pure
     * function of the message: the runtime asks once per message of a transcript and keeps the answer.
     */
    long count(Message message);

    /** Tokens of a request's input: system prompt, tool definitions, messages and request framing. */
    long count(String system, List<ToolSpec> tools, List<Message> messages);

    /** Tokens of a request's input (not its output limit). */
    default long count(ChatRequest request) {
        return measure(request).tokens();
    }

    /** Tokens of a request's input, saying whether the count is the provider's own (exact) and who counted. */
    default Measure measure(ChatRequest request) {
        return new Measure(count(request.system(), request.tools(), request.messages()), false, name());
    }

    /** A request's token count: {@code exact} when the model's provider counted it, else a local approximation. */
    record Measure(long tokens, boolean exact, String counter) {
    }

    /** The default local tokenizer: {@code o200k_base} via jtokkit (exact for OpenAI, approximate for others). */
    static TokenCounter approximate() {
        return JtokkitTokenCounter.O200K;
    }

    /**
     * Counts requests with {@code model}'s own counter where it offers one, else with {@code local};
     * messages are always counted with {@code local}.
     */
    static TokenCounter of(ChatModel model, TokenCounter local) {
        return new ProviderTokenCounter(Require.nonNull(model, "model"), Require.nonNull(local, "local"));
    }

    /** A provider's count for whole requests, a local tokenizer for the rest. */
    record ProviderTokenCounter(ChatModel model, TokenCounter local) implements TokenCounter {
        @Override
        public String name() {
            return model.name() + " count_tokens, else " + local.name();
        }

        @Override
        public long count(String text) {
            return local.count(text);
        }

        @Override
        public long count(Message message) {
            return local.count(message);
        }

        @Override
        public long count(String system, List<ToolSpec> tools, List<Message> messages) {
            return local.count(system, tools, messages);
        }

        @Override
        public Measure measure(ChatRequest request) {
            java.util.OptionalLong exact = model.countTokens(request);
            return exact.isPresent() ? new Measure(exact.getAsLong(), true, model.name() + " count_tokens")
                    : local.measure(request);
        }
    }
}
