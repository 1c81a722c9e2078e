package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI's MessageWindowChatMemory cases, run differentially ({@link Differential}): after every call the
 * Threadline repository holds what Spring AI's InMemoryChatMemoryRepository holds under the same window, on
 * whichever Spring AI line is on the class path. What is asserted besides is what every line does (the
 * window's size, system messages kept) and what Threadline promises of its journal.
 */
class WindowMemoryTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tl.tenant("acme"));

    @AfterEach
    void close() {
        tl.close();
    }

    private Differential memory(int max) {
        return new Differential(repository, max);
    }

    @Test
    void adds_gets_and_clears() {
        Differential memory = memory(10);
        List<Message> messages = List.of(new AssistantMessage("I, Robot"), new UserMessage("Hello"));
        assertThat(memory.add("c1", messages.toArray(Message[]::new))).containsExactlyElementsOf(messages);
        assertThat(memory.clear("c1")).isEmpty();
    }

    @Test
    void no_eviction_within_the_limit() {
        assertThat(memory(3).add("c1", new UserMessage("Hello"), new AssistantMessage("Hi there"), new UserMessage("How are you?")))
                .containsExactly(new UserMessage("Hello"), new AssistantMessage("Hi there"), new UserMessage("How are you?"));
    }

    @Test
    void evicts_the_oldest_messages_over_the_limit() {
        Differential memory = memory(2);
        memory.add("c1", new UserMessage("Message 1"), new AssistantMessage("Response 1"));
        assertThat(memory.add("c1", new UserMessage("Message 2"), new AssistantMessage("Response 2")))
                .containsExactly(new UserMessage("Message 2"), new AssistantMessage("Response 2"));
    }

    @Test
    void system_messages_stay_during_eviction() {
        Differential memory = memory(3);
        memory.add("c1", new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"),
                new UserMessage("Message 1"), new AssistantMessage("Response 1"));
        List<Message> held = memory.add("c1", new UserMessage("Message 2"), new AssistantMessage("Response 2"));

        // 1.1 keeps the newest messages that fit; 2.0 evicts whole turns (here: all of them): both keep the system messages
        assertThat(held).hasSizeLessThanOrEqualTo(3)
                .startsWith(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"))
                .doesNotContain(new UserMessage("Message 1"), new AssistantMessage("Response 1"));
    }

    @Test
    void a_new_system_message_replaces_the_old_ones() {
        Differential memory = memory(2);
        memory.add("c1", new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"));
        assertThat(memory.add("c1", new SystemMessage("System instruction 3"))).containsExactly(new SystemMessage("System instruction 3"));
    }

    @Test
    void a_limit_equal_to_the_system_messages_keeps_only_them() {
        Differential memory = memory(2);
        memory.add("c1", new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"));
        assertThat(memory.add("c1", new UserMessage("Message 1"), new AssistantMessage("Response 1")))
                .containsExactly(new SystemMessage("System instruction 1"), new SystemMessage("System instruction 2"));
    }

    @Test
    void a_sliding_window_moves_the_view_and_appends_only_the_new_messages() {
        Differential memory = memory(4);
        memory.add("c1", new SystemMessage("be brief"));
        List<Message> held = List.of();
        for (int i = 0; i < 20; i++) {
            memory.add("c1", new UserMessage("q" + i));
            held = memory.add("c1", new AssistantMessage("a" + i));
        }
        assertThat(held).hasSizeLessThanOrEqualTo(4).startsWith(new SystemMessage("be brief")).endsWith(new UserMessage("q19"),
                new AssistantMessage("a19"));
        var state = tl.tenant("acme").open("c1").state();
        assertThat(state.messages()).hasSize(40); // each message appended once
        assertThat(state.contextStart()).isZero(); // no rewrite
    }

    @Test
    void a_window_of_several_turns_and_several_conversations() {
        Differential memory = memory(5);
        for (int i = 0; i < 12; i++) {
            String c = "c" + (i % 3);
            if (i % 4 == 0) {
                memory.add(c, new SystemMessage("rule " + i));
            }
            memory.add(c, new UserMessage("q" + i), new AssistantMessage("thinking " + i));
            memory.add(c, new AssistantMessage("a" + i));
        }
        for (String c : List.of("c0", "c1", "c2")) {
            assertThat(memory.get(c)).hasSizeLessThanOrEqualTo(5).isNotEmpty();
        }
    }
}
