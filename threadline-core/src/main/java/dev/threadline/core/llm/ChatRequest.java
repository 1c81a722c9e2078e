package dev.threadline.core.llm;

import dev.threadline.core.error.Require;
import dev.threadline.core.model.Message;
import java.util.List;

/**
 * One model call: the system prompt, the messages the context policy chose (already validated), the
 * tools the model may call, and the output limit.
 */
public record ChatRequest(String model, String system, List<Message> messages, List<ToolSpec> tools, int maxTokens) {
    public ChatRequest {
        Require.nonNull(model, "model");
        system = system == null ? "" : system;
        messages = dev.threadline.core.state.ModelTranscript.frozen(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
        Require.argument(maxTokens >= 1, "maxTokens", "must be at least 1");
    }
}
