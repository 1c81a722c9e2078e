package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;

/**
 * The model of a runtime built without one: sessions can be created, read, edited and used by the
 * chat-memory adapters (none of which calls a model), and a turn fails with a message naming the
 * builder methods that were not called, instead of running a demo model nobody asked for.
 */
public final class NoModel implements ChatModel {
    public static final String MESSAGE = "this runtime has no model: build it with Threadline.builder().model(...) or .models(...)"
            + " (Threadline.demoBuilder() presets the offline scripted demo model)";

    @Override
    public String name() {
        return "none";
    }

    @Override
    public ChatResponse complete(ChatRequest request) {
        throw new ModelException(MESSAGE, ModelException.Kind.NOT_FOUND, false);
    }
}
