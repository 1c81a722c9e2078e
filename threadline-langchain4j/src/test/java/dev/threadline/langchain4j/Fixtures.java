package dev.threadline.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;

/** Shared helpers: a runtime on the in-memory store, and tool messages built the way AiServices builds them. */
final class Fixtures {
    private Fixtures() {}

    static Threadline runtime() {
        return Threadline.builder().store(new InMemoryStateStore()).build();
    }

    static ToolExecutionRequest call(String id, String name, String arguments) {
        return ToolExecutionRequest.builder().id(id).name(name).arguments(arguments).build();
    }

    /** A successful result, as AiServices records it (error flag false, not unknown). */
    static ToolExecutionResultMessage result(ToolExecutionRequest call, String text) {
        return ToolExecutionResultMessage.builder().id(call.id()).toolName(call.name()).text(text).isError(false).build();
    }
}
