package dev.threadline.core.llm;

import dev.threadline.core.error.Require;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.List;

/** A model's reply: content blocks, why it stopped, what it cost. */
public record ChatResponse(List<ContentBlock> content, StopReason stopReason, Usage usage) {
    public ChatResponse {
        content = List.copyOf(Require.nonNull(content, "content"));
        Require.nonNull(stopReason, "stopReason");
        usage = usage == null ? Usage.ZERO : usage;
    }

    /** This reply as the assistant message the transcript records. */
    public Message toMessage() {
        return Message.assistant(content, stopReason, usage);
    }

    /** The reply's text blocks, joined. */
    public String text() {
        return toMessage().text();
    }
}
