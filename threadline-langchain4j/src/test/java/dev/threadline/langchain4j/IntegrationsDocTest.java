package dev.threadline.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.harness.docs.DocSnippets;
import dev.threadline.langchain4j.ThreadlineChatMemory;
import dev.threadline.langchain4j.ThreadlineChatMemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The LangChain4j snippet of docs/integrations.md is the code below, compiled and run. */
class IntegrationsDocTest {
    @Test
    void theDocsSnippetIsThisCompiledCode() throws Exception {
        DocSnippets.assertSnippetIsCompiled("langchain4j",
                Path.of("src/test/java/dev/threadline/langchain4j/IntegrationsDocTest.java"));
    }

    @Test
    void theSnippetsMemoriesKeepMessagesInThreadline() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            // snippet: langchain4j
            Tenant tenant = tl.tenant("acme");

            // 1. LangChain4j's own window memory, persisted in Threadline
            ChatMemory window = MessageWindowChatMemory.builder()
                    .id("user-7").maxMessages(20).chatMemoryStore(new ThreadlineChatMemoryStore(tenant)).build();

            // 2. or Threadline's memory: appends, never rewrites, safe when shared between threads
            ChatMemory memory = ThreadlineChatMemory.builder(tenant).id("user-8").maxMessages(20).build();
            // AiServices.builder(Assistant.class).chatModel(model).chatMemory(memory).build();
            // end snippet
            window.add(UserMessage.from("hi"));
            memory.add(UserMessage.from("hello"));
            assertThat(ThreadlineChatMemory.builder(tenant).id("user-8").build().messages()).hasSize(1);
            assertThat(tenant.find(ThreadlineChatMemoryStore.sessionId("user-7"))).isPresent();
        }
    }
}
