package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * A save's work does not grow with the history: the messages converted (either way) in the steps of one turn under
 * Spring AI's window memory are counted, not timed, at two history lengths, and must be the same small number.
 */
class ConversionsPerStepTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void a_step_under_spring_ai_window_memory_converts_what_is_new_only() {
        ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tl.tenant("acme"));
        ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(100_000).build();
        int[] lengths = {100, 2_000};
        long[] perTurn = new long[2];
        for (int i = 0; i < 2; i++) {
            String id = "c" + i;
            repository.saveAll(id, history(lengths[i]));
            turn(lengths[i]).forEach(m -> memory.add(id, m)); // the first turn fills the cache, as any step after the first finds it
            long before = SpringMessages.CONVERSIONS.sum();
            turn(lengths[i] + 4).forEach(m -> memory.add(id, m));
            perTurn[i] = SpringMessages.CONVERSIONS.sum() - before;
            assertThat(memory.get(id)).hasSize(lengths[i] + 1 + 8).endsWith(turn(lengths[i] + 4).toArray(Message[]::new));
        }
        assertThat(perTurn[1]).isEqualTo(perTurn[0]);
        assertThat(perTurn[0]).isLessThanOrEqualTo(24); // 4 messages: each converted a few times, not the history
    }

    private static List<Message> turn(int n) {
        String id = "call_" + n;
        return List.of(new UserMessage("question " + n),
                AssistantMessage.builder().content("").toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", "clock", "{}"))).build(),
                ToolResponseMessage.builder().responses(List.of(new ToolResponseMessage.ToolResponse(id, "clock", "9:0" + n))).build(),
                new AssistantMessage("answer " + n));
    }

    private static List<Message> history(int n) {
        List<Message> out = new ArrayList<>();
        out.add(new SystemMessage("be brief"));
        for (int i = 0; i < n; i += 4) {
            out.addAll(turn(i));
        }
        return out;
    }
}
