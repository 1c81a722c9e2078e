/**
 * The framework-neutral part of Threadline's chat-memory adapters (LangChain4j's {@code ChatMemoryStore} and
 * {@code ChatMemory}, Spring AI's {@code ChatMemoryRepository}): {@link dev.threadline.chatmemory.MemoryLayout}
 * says where a memory's view of a session lives, {@link dev.threadline.chatmemory.MemoryStep} decides the one
 * step that moves it, {@link dev.threadline.chatmemory.CallIds} and {@link dev.threadline.chatmemory.ToolArguments}
 * map tool calls between a framework and Threadline, {@link dev.threadline.chatmemory.SessionIds} finds a
 * memory's session. Its one package is the API.
 */
module dev.threadline.chatmemory {
    requires transitive dev.threadline.core;

    exports dev.threadline.chatmemory;
}
