package dev.threadline.core.context;

import dev.threadline.core.error.Require;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.llm.ToolSpec;
import java.util.List;

/**
 * What a context policy measures a view against: the model's window, the room kept for the reply,
 * the tokens every request spends before the first message (system prompt, tool definitions) and the
 * counter that measures messages.
 *
 * @param windowTokens    the model's context window ({@code ChatModel.contextWindowTokens()})
 * @param maxOutputTokens the reply's limit (the session's {@code maxOutputTokens}); providers refuse a
 *                        request whose input plus this exceeds the window
 * @param fixedTokens     the request's tokens without messages: system prompt, tools, framing
 * @param counter         counts messages
 */
public record ContextLimits(int windowTokens, int maxOutputTokens, long fixedTokens, TokenCounter counter) {

    public ContextLimits {
        Require.argument(windowTokens >= 1, "windowTokens", "must be at least 1, was " + windowTokens);
        Require.argument(maxOutputTokens >= 1, "maxOutputTokens", "must be at least 1, was " + maxOutputTokens);
        Require.argument(fixedTokens >= 0, "fixedTokens", "must not be negative, was " + fixedTokens);
        Require.nonNull(counter, "counter");
    }

    /** Limits for requests with this system prompt and these tools. */
    public static ContextLimits of(int windowTokens, int maxOutputTokens, String system, List<ToolSpec> tools,
                                   TokenCounter counter) {
        return new ContextLimits(windowTokens, maxOutputTokens, counter.count(system, tools, List.of()), counter);
    }

    /** The most input tokens a request may hold: the window less the room for the reply. */
    public long inputBudget() {
        return Math.max(0, (long) windowTokens - maxOutputTokens);
    }

    /** Whether the reply's limit leaves any room for input at all. */
    public boolean usable() {
        return inputBudget() > fixedTokens;
    }
}
