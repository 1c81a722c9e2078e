/**
 * Threadline for Spring AI: {@link dev.threadline.springai.ThreadlineChatMemoryRepository}, a
 * {@code ChatMemoryRepository} on Threadline sessions. Its one package is the API; the sync it shares with the
 * LangChain4j adapter is {@code dev.threadline.chatmemory}.
 */
module dev.threadline.springai {
    requires transitive dev.threadline.core;
    requires dev.threadline.chatmemory;
    // Spring AI publishes no module name: its automatic name comes from the jar's file name
    requires transitive spring.ai.model;
    requires spring.core;

    exports dev.threadline.springai;
}
