package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;

/** Spring AI's MessageWindowChatMemory cases, run over the Threadline repository. */
class WindowMemoryTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tl.tenant("acme"));

    @AfterEach
    void close() {
        tl.close();
    }

    private ChatMemory memory(int max) {
        return MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(max).build();
    }

    @Test
    void adds_gets_and_clears() {
        ChatMemory memory = memory(10);
        List<Message> messages = List.of(new AssistantMessage("I, Robot"), new UserMessage("Hello"));
        memory.add("c1", messages);
        assertThat(memory.get("c1")).containsExactlyElementsOf(messages);

        memory.clear("c1");
        assertThat(memory.get("c1")).isEmpty();
    }

    @Test
    void no_eviction_within_the_limit() {
        ChatMemory memory = memory(3);
        memory.add("c1", List.of(new UserMessage("Hello"), new AssistantMessage("Hi there"), new UserMessage("How are you?")));
        assertThat(memory.get("c1")).containsExactly(new UserMessage("Hello"), new AssistantMessage("Hi there"),
                new UserMessage("How are you?"));
    }

    @Test
    void evicts_the_oldest_messages_over_the_limit() {
        ChatMemory memory = memory(2);
        memory.add("c1", List.of(new UserMessage("Message 1"), new AssistantMessage("Response 1")));
        memory.add("c1", List.of(new UserMessage("Message 2"), new AssistantMessage("Response 2")));
        assertThat(memory.get("c1")).containsExactly(new UserMessage("Message 2"), new AssistantMessage("Response 2"));
    }

    @Test
    void system_messages_stay_during_eviction() {
        ChatMemory memory = memory(3);
        memory.add("c1", List.of(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"),
                new UserMessage("Message 1"), new AssistantMessage("Response 1")));
        memory.add("c1", List.of(new UserMessage("Message 2"), new AssistantMessage("Response 2")));

        assertThat(memory.get("c1")).containsExactly(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"),
                new AssistantMessage("Response 2"));
    }

    @Test
    void a_new_system_message_replaces_the_old_ones() {
        ChatMemory memory = memory(2);
        memory.add("c1", List.of(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2")));
        memory.add("c1", List.of(new SystemMessage("System instruction 3")));
        assertThat(memory.get("c1")).containsExactly(new SystemMessage("System instruction 3"));
    }

    @Test
    void a_limit_equal_to_the_system_messages_keeps_only_them() {
        ChatMemory memory = memory(2);
        memory.add("c1", List.of(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2")));
        memory.add("c1", List.of(new UserMessage("Message 1"), new AssistantMessage("Response 1")));
        assertThat(memory.get("c1")).containsExactly(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"));
    }

    @Test
    void a_sliding_window_moves_the_view_and_appends_only_the_new_messages() {
        ChatMemory memory = memory(4);
        memory.add("c1", new SystemMessage("be brief"));
        for (int i = 0; i < 20; i++) {
            memory.add("c1", new UserMessage("q" + i));
            memory.add("c1", new AssistantMessage("a" + i));
        }
        assertThat(memory.get("c1")).containsExactly(new SystemMessage("be brief"), new AssistantMessage("a18"), new UserMessage("q19"),
                new AssistantMessage("a19"));
        var state = tl.tenant("acme").open("c1").state();
        assertThat(state.messages()).hasSize(40); // each message appended once
        assertThat(state.contextStart()).isZero(); // no rewrite
    }
}
