package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.threadline.core.Threadline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A step's work does not grow with the history: the messages converted (either way) in one step through each
 * adapter are counted, not timed, at two history lengths, and must be the same small number at both.
 */
class ConversionsPerStepTest {
    private final Threadline tl = Fixtures.runtime();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void a_step_under_langchain4j_window_memory_converts_what_is_new_only() {
        ThreadlineChatMemoryStore store = new ThreadlineChatMemoryStore(tl.tenant("acme"));
        long[] perStep = new long[2];
        int[] lengths = {100, 2_000};
        for (int i = 0; i < 2; i++) {
            String id = "m" + i;
            store.updateMessages(id, history(lengths[i]));
            ChatMemory memory = MessageWindowChatMemory.builder().id(id).maxMessages(100_000).chatMemoryStore(store).build();
            perStep[i] = conversionsOfATurn(memory::add, memory::messages, lengths[i]);
        }
        assertThat(perStep[1]).isEqualTo(perStep[0]);
        assertThat(perStep[0]).isLessThanOrEqualTo(40); // 8 messages (4 steps twice): each converted a few times, not the history
    }

    @Test
    void a_step_through_the_threadline_memory_converts_what_is_new_only() {
        long[] perStep = new long[2];
        int[] lengths = {100, 2_000};
        for (int i = 0; i < 2; i++) {
            ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tl.tenant("acme")).id("t" + i).build();
            memory.add(history(lengths[i]));
            perStep[i] = conversionsOfATurn(memory::add, memory::messages, lengths[i]);
        }
        assertThat(perStep[1]).isEqualTo(perStep[0]);
        assertThat(perStep[0]).isLessThanOrEqualTo(40);
    }

    /** The conversions of the second of two turns (user, tool call, its result, answer), each step one add. */
    private static long conversionsOfATurn(java.util.function.Consumer<ChatMessage> add, Supplier<List<ChatMessage>> read, int length) {
        List<ChatMessage> turn = turn(length);
        turn.forEach(add); // the first one warms the cache, as any step after the first does
        long before = Messages.CONVERSIONS.sum();
        turn(length + 4).forEach(add);
        long converted = Messages.CONVERSIONS.sum() - before;
        assertThat(read.get()).hasSize(length + 1 + 8).endsWith(turn(length + 4).toArray(ChatMessage[]::new));
        return converted;
    }

    private static List<ChatMessage> turn(int n) {
        ToolExecutionRequest c = call("call-" + n, "clock", "{}");
        return List.of(UserMessage.from("question " + n), AiMessage.from(c), result(c, "9:0" + n), AiMessage.from("answer " + n));
    }

    private static List<ChatMessage> history(int n) {
        List<ChatMessage> out = new ArrayList<>();
        out.add(SystemMessage.from("be brief"));
        for (int i = 0; i < n; i += 4) {
            out.addAll(turn(i));
        }
        return out;
    }
}
