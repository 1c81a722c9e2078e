package dev.threadline.core.context;

import dev.threadline.core.model.Message;
import java.util.List;

/**
 * What a policy hands the model: the messages, and how they measure up.
 *
 * @param messages the view; starts with a user message and never splits a tool_use from its result
 * @param tokens   the request's input tokens with these messages (system prompt and tools included),
 *                 as the policy's counter measured them
 * @param budget   the most input tokens the policy aims for
 * @param omitted  messages since the last clear that are not in the view as themselves (summarised or
 *                 dropped); the journal still holds them
 * @param warning  null, or why the view is over its budget: the current turn cannot be cut without
 *                 separating a tool call from its result, so it is sent whole
 * @param start    the transcript index of the view's first message that is not a summary or recalled
 *                 (the transcript's size when there is none): what is older than the view starts before it
 */
public record ContextView(List<Message> messages, long tokens, long budget, int omitted, String warning, int start) {
    public ContextView {
        messages = dev.threadline.core.state.ModelTranscript.frozen(messages);
    }

    /** Whether the view is still over its token budget (the current turn alone does not fit). */
    public boolean overBudget() {
        return tokens > budget;
    }
}
