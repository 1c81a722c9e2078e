/**
 * Threadline for LangChain4j: {@link dev.threadline.langchain4j.ThreadlineChatMemoryStore} (a
 * {@code ChatMemoryStore}) and {@link dev.threadline.langchain4j.ThreadlineChatMemory} (a {@code ChatMemory})
 * on Threadline sessions. Their one package is the API; the sync they share is {@code dev.threadline.chatmemory}.
 */
module dev.threadline.langchain4j {
    requires transitive dev.threadline.core;
    requires dev.threadline.chatmemory;
    // langchain4j-core publishes no module name: its automatic name comes from the jar's file name
    requires transitive langchain4j.core;

    exports dev.threadline.langchain4j;
}
