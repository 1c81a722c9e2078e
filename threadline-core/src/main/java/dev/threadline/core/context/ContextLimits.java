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
 * @param recall          the session's recall (ADR 0042), or null when it is off: its token budget is kept free in
 *                        every view, and the messages it chose are placed after the summary
 */
public record ContextLimits(int windowTokens, int maxOutputTokens, long fixedTokens, TokenCounter counter, ContextRecall recall) {

    /** Limits of a session without recall. */
    public ContextLimits(int windowTokens, int maxOutputTokens, long fixedTokens, TokenCounter counter) {
        this(windowTokens, maxOutputTokens, fixedTokens, counter, null);
    }

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

    /** These limits with the session's recall setting (null: off). */
    public ContextLimits withRecall(ContextRecall setting) {
        return new ContextLimits(windowTokens, maxOutputTokens, fixedTokens, counter, setting);
    }

    /** The tokens a policy counts before the first message: the fixed ones and the room kept for recalled messages. */
    public long baseTokens() {
        return fixedTokens + (recall == null ? 0 : recall.tokenBudget());
    }

    /** The most input tokens a request may hold: the window less the room for the reply. */
    public long inputBudget() {
        return Math.max(0, (long) windowTokens - maxOutputTokens);
    }

    /** Whether the reply's limit leaves any room for input at all (beside the room kept for recalled messages). */
    public boolean usable() {
        return inputBudget() > baseTokens();
    }
}
