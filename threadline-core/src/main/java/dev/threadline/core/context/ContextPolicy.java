package dev.threadline.core.context;

import dev.threadline.core.model.Message;
import dev.threadline.core.state.State;
import java.util.List;

/**
 * Chooses what part of the transcript the model sees. A policy never separates a tool_use from its
 * tool_result, never drops a pending call, and yields a view that starts with a user message; the
 * runtime checks every view with the transcript validator before the model call.
 */
public interface ContextPolicy {

    /** The policy's name, as stored in a session's config. */
    String name();

    /** The messages to send to the model for this state. */
    List<Message> view(State state);

    /** Everything since the last clear, with the latest compaction summary in place of what it covers. */
    static ContextPolicy full() {
        return FullContext.INSTANCE;
    }
}
