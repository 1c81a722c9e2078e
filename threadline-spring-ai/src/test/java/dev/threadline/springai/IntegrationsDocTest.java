package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.harness.docs.DocSnippets;
import dev.threadline.springai.ThreadlineChatMemoryRepository;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.UserMessage;

/** The Spring AI snippet of docs/integrations.md is the code below, compiled and run. */
class IntegrationsDocTest {
    @Test
    void theDocsSnippetIsThisCompiledCode() throws Exception {
        DocSnippets.assertSnippetIsCompiled("spring-ai",
                Path.of("src/test/java/dev/threadline/springai/IntegrationsDocTest.java"));
    }

    // snippet: spring-ai
    // a @Bean method of a Spring application
    ChatMemory chatMemory(Threadline threadline) {
        return MessageWindowChatMemory.builder()
                .chatMemoryRepository(new ThreadlineChatMemoryRepository(threadline.tenant("acme")))
                .maxMessages(20).build();
    }
    // end snippet

    @Test
    void theSnippetsMemoryKeepsAConversationInThreadline() {
        try (Threadline threadline = Threadline.builder().store(new InMemoryStateStore()).build()) {
            chatMemory(threadline).add("conversation-1", new UserMessage("hi"));
            assertThat(chatMemory(threadline).get("conversation-1")).hasSize(1);
        }
    }
}
