package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Tenant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** MessageWindowChatMemory's and ChatMemory's behavioural cases, for the Threadline memory. */
class ThreadlineChatMemoryTest {
    private final Threadline tl = Fixtures.runtime();
    private final Tenant tenant = tl.tenant("acme");

    @AfterEach
    void close() {
        tl.close();
    }

    private ThreadlineChatMemory memory(int max) {
        return ThreadlineChatMemory.builder(tenant).id("m1").maxMessages(max).build();
    }

    @Test
    void id_defaults_to_default() {
        assertThat(ThreadlineChatMemory.builder(tenant).build().id()).isEqualTo("default");
        assertThat(ThreadlineChatMemory.builder(tenant).id("abc").build().id()).isEqualTo("abc");
    }

    @Test
    void store_and_clear() {
        ThreadlineChatMemory memory = memory(2);
        memory.add(UserMessage.from("hello"));
        memory.add(UserMessage.from("world"));
        assertThat(memory.messages()).containsExactly(UserMessage.from("hello"), UserMessage.from("world"));

        memory.add(UserMessage.from("banana"));
        assertThat(memory.messages()).containsExactly(UserMessage.from("world"), UserMessage.from("banana"));

        memory.clear();
        memory.clear(); // idempotent
        assertThat(memory.messages()).isEmpty();
        assertThat(memory.session().state().messages()).hasSize(3); // the journal keeps the history
    }

    @Test
    void keeps_the_specified_number_of_messages() {
        ThreadlineChatMemory memory = memory(3);
        memory.add(UserMessage.from("hello"));
        memory.add(AiMessage.from("hi"));
        memory.add(UserMessage.from("sup"));
        assertThat(memory.messages()).containsExactly(UserMessage.from("hello"), AiMessage.from("hi"), UserMessage.from("sup"));

        memory.add(AiMessage.from("not much"));

        assertThat(memory.messages()).containsExactly(AiMessage.from("hi"), UserMessage.from("sup"), AiMessage.from("not much"));
    }

    @Test
    void never_evicts_the_system_message() {
        ThreadlineChatMemory memory = memory(3);
        SystemMessage system = SystemMessage.from("You are a helpful assistant");
        memory.add(system);
        memory.add(UserMessage.from("Hello"));
        memory.add(AiMessage.from("Hi, how can I help you?"));
        memory.add(UserMessage.from("Tell me a joke"));
        assertThat(memory.messages()).containsExactly(system, AiMessage.from("Hi, how can I help you?"), UserMessage.from("Tell me a joke"));

        memory.add(AiMessage.from("Why did the Java developer wear glasses?"));
        assertThat(memory.messages()).containsExactly(system, UserMessage.from("Tell me a joke"),
                AiMessage.from("Why did the Java developer wear glasses?"));
    }

    @Test
    void keeps_only_the_latest_system_message() {
        ThreadlineChatMemory memory = memory(3);
        memory.add(SystemMessage.from("You are a helpful assistant"));
        memory.add(UserMessage.from("Hello"));
        memory.add(AiMessage.from("Hi"));

        memory.add(SystemMessage.from("You are an unhelpful assistant"));

        assertThat(memory.messages()).containsExactly(UserMessage.from("Hello"), AiMessage.from("Hi"),
                SystemMessage.from("You are an unhelpful assistant"));
    }

    @Test
    void does_not_add_the_same_system_message_twice() {
        ThreadlineChatMemory memory = memory(3);
        SystemMessage system = SystemMessage.from("You are a helpful assistant");
        memory.add(system);
        memory.add(UserMessage.from("Hello"));
        memory.add(AiMessage.from("Hi"));
        long seq = memory.session().state().seq();

        memory.add(system);

        assertThat(memory.messages()).containsExactly(system, UserMessage.from("Hello"), AiMessage.from("Hi"));
        assertThat(memory.session().state().seq()).isEqualTo(seq); // nothing written
    }

    @Test
    void system_message_first_when_asked() {
        ThreadlineChatMemory first = ThreadlineChatMemory.builder(tenant).id("first").alwaysKeepSystemMessageFirst(true).build();
        first.add(UserMessage.from("Hello"));
        first.add(SystemMessage.from("be brief"));
        first.add(AiMessage.from("Hi"));
        assertThat(first.messages()).containsExactly(SystemMessage.from("be brief"), UserMessage.from("Hello"), AiMessage.from("Hi"));

        ThreadlineChatMemory inPlace = ThreadlineChatMemory.builder(tenant).id("in-place").build();
        inPlace.add(UserMessage.from("Hello"));
        inPlace.add(SystemMessage.from("be brief"));
        inPlace.add(AiMessage.from("Hi"));
        assertThat(inPlace.messages()).containsExactly(UserMessage.from("Hello"), SystemMessage.from("be brief"), AiMessage.from("Hi"));
    }

    @Test
    void system_message_first_survives_eviction() {
        ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tenant).id("m1").maxMessages(3).alwaysKeepSystemMessageFirst(true).build();
        SystemMessage system = SystemMessage.from("You are a helpful assistant");
        memory.add(system);
        memory.add(UserMessage.from("Message 1"));
        memory.add(UserMessage.from("Message 2"));
        memory.add(UserMessage.from("Message 3"));

        assertThat(memory.messages()).containsExactly(system, UserMessage.from("Message 2"), UserMessage.from("Message 3"));
    }

    @Test
    void evicts_results_together_with_their_request() {
        ThreadlineChatMemory memory = memory(2);
        ToolExecutionRequest c1 = call("1", "calculator", "{\"a\":2,\"b\":2}");
        memory.add(UserMessage.from("How much is 2+2?"));
        memory.add(AiMessage.from(c1));
        assertThat(memory.messages()).containsExactly(UserMessage.from("How much is 2+2?"), AiMessage.from(c1));

        memory.add(result(c1, "4"));
        assertThat(memory.messages()).containsExactly(AiMessage.from(c1), result(c1, "4"));

        memory.add(AiMessage.from("2 + 2 = 4"));
        assertThat(memory.messages()).containsExactly(AiMessage.from("2 + 2 = 4"));
    }

    @Test
    void evicts_several_results_with_their_request_behind_a_system_message() {
        ThreadlineChatMemory memory = memory(4);
        SystemMessage system = SystemMessage.from("Use calculator for math questions");
        ToolExecutionRequest c1 = call("1", "calculator", "{\"a\":2,\"b\":2}");
        ToolExecutionRequest c2 = call("2", "calculator", "{\"a\":3,\"b\":3}");
        memory.add(system);
        memory.add(UserMessage.from("How much is 2+2 and 3+3?"));
        memory.add(AiMessage.from(c1, c2));
        memory.add(result(c1, "4"));
        assertThat(memory.messages()).containsExactly(system, UserMessage.from("How much is 2+2 and 3+3?"), AiMessage.from(c1, c2),
                result(c1, "4"));

        memory.add(result(c2, "6"));
        assertThat(memory.messages()).containsExactly(system, AiMessage.from(c1, c2), result(c1, "4"), result(c2, "6"));

        memory.add(AiMessage.from("4 and 6"));
        assertThat(memory.messages()).containsExactly(system, AiMessage.from("4 and 6"));
    }

    @Test
    void a_larger_window_later_shows_more_as_nothing_left_the_journal() {
        ThreadlineChatMemory small = memory(2);
        for (String s : List.of("A", "B", "C", "D")) {
            small.add(UserMessage.from(s));
        }
        assertThat(small.messages()).containsExactly(UserMessage.from("C"), UserMessage.from("D"));
        assertThat(memory(5).messages()).hasSize(4);
    }

    @Test
    void add_varargs_and_iterables() {
        ThreadlineChatMemory memory = memory(10);
        memory.add(UserMessage.from("1"), UserMessage.from("2"));
        memory.add(List.of(UserMessage.from("3"), UserMessage.from("4")));
        memory.add((ChatMessage[]) null);
        memory.add();
        memory.add((Iterable<ChatMessage>) null);

        assertThat(memory.messages()).containsExactly(UserMessage.from("1"), UserMessage.from("2"), UserMessage.from("3"),
                UserMessage.from("4"));
    }

    @Test
    void set_replaces_the_messages_and_refuses_nothing_to_set() {
        ThreadlineChatMemory memory = memory(10);
        memory.add(UserMessage.from("old"));

        memory.set(UserMessage.from("1"), UserMessage.from("2"));
        assertThat(memory.messages()).containsExactly(UserMessage.from("1"), UserMessage.from("2"));

        assertThatThrownBy(() -> memory.set((ChatMessage[]) null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.set()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.set(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
    }

    @Test
    void set_does_not_keep_the_callers_list() {
        ThreadlineChatMemory memory = memory(2);
        List<ChatMessage> callers = new ArrayList<>(List.of(UserMessage.from("a1"), UserMessage.from("a2"), UserMessage.from("a3")));

        memory.set(callers);
        callers.add(UserMessage.from("a4-injected"));

        assertThat(memory.messages()).containsExactly(UserMessage.from("a2"), UserMessage.from("a3"));
    }
}
