package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.Message;

/**
 * The same calls on Threadline's repository and on Spring AI's own {@link InMemoryChatMemoryRepository}, each under
 * its own {@link MessageWindowChatMemory} of the same size, compared after every call: what a conversation holds is
 * whatever the Spring AI on the class path makes of it (1.1 and 2.0 evict differently), never a list written down
 * from one version. Not thread-safe: one test's.
 */
final class Differential {
    private final ChatMemoryRepository reference = new InMemoryChatMemoryRepository();
    private final ChatMemoryRepository threadline;
    private final ChatMemory referenceMemory;
    private final ChatMemory threadlineMemory;

    Differential(ThreadlineChatMemoryRepository threadline, int maxMessages) {
        this.threadline = threadline;
        this.referenceMemory = MessageWindowChatMemory.builder().chatMemoryRepository(reference).maxMessages(maxMessages).build();
        this.threadlineMemory = MessageWindowChatMemory.builder().chatMemoryRepository(threadline).maxMessages(maxMessages).build();
    }

    /** {@link ChatMemory#add} on both; returns what the conversation holds then, the same on both. */
    List<Message> add(String conversationId, Message... messages) {
        referenceMemory.add(conversationId, List.of(messages));
        threadlineMemory.add(conversationId, List.of(messages));
        return get(conversationId);
    }

    /** {@link ChatMemoryRepository#saveAll} on both repositories; returns what each finds then, the same. */
    List<Message> saveAll(String conversationId, List<Message> messages) {
        reference.saveAll(conversationId, messages);
        threadline.saveAll(conversationId, messages);
        return get(conversationId);
    }

    /** {@link ChatMemory#clear} on both. */
    List<Message> clear(String conversationId) {
        referenceMemory.clear(conversationId);
        threadlineMemory.clear(conversationId);
        return get(conversationId);
    }

    /** The conversation as both hold it, after checking they hold the same. */
    List<Message> get(String conversationId) {
        List<Message> expected = referenceMemory.get(conversationId);
        List<Message> actual = threadlineMemory.get(conversationId);
        assertThat(actual).as("Threadline's repository against Spring AI's InMemoryChatMemoryRepository for %s", conversationId)
                .containsExactlyElementsOf(expected);
        assertThat(threadline.findConversationIds()).as("conversation ids")
                .containsExactlyInAnyOrderElementsOf(reference.findConversationIds());
        return actual;
    }
}
