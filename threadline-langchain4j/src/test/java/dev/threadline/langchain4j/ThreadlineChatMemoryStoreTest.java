package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Tenant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store's contract as LangChain4j's own tests state it for InMemoryChatMemoryStore, and
 * MessageWindowChatMemory's cases run over this store (LangChain4j's memory, our persistence).
 */
class ThreadlineChatMemoryStoreTest {
    private final Threadline tl = Fixtures.runtime();
    private final Tenant tenant = tl.tenant("acme");
    private final ThreadlineChatMemoryStore store = new ThreadlineChatMemoryStore(tenant);

    @AfterEach
    void close() {
        tl.close();
    }

    private ChatMemory window(int max) {
        return MessageWindowChatMemory.builder().id("m1").maxMessages(max).chatMemoryStore(store).build();
    }

    @Test
    void stores_reads_and_deletes_messages_per_memory_id() {
        assertThat(store.getMessages("foo")).isEmpty();

        store.updateMessages("foo", List.of(UserMessage.from("abc def"), AiMessage.from("ghi jkl")));

        assertThat(store.getMessages("foo")).containsExactly(UserMessage.from("abc def"), AiMessage.from("ghi jkl"));
        assertThat(store.getMessages("bar")).isEmpty();

        store.deleteMessages("foo");

        assertThat(store.getMessages("foo")).isEmpty();
        assertThat(tenant.find("foo")).isEmpty();
        store.deleteMessages("foo"); // deleting what is gone is fine
    }

    @Test
    void a_memory_id_that_is_not_a_session_id_maps_to_a_stable_hash() {
        store.updateMessages("user 7 / chat #2", List.of(UserMessage.from("hi")));

        assertThat(ThreadlineChatMemoryStore.sessionId("user 7 / chat #2")).startsWith("lc4j-").hasSize(37);
        assertThat(store.getMessages("user 7 / chat #2")).containsExactly(UserMessage.from("hi"));
        assertThat(store.getMessages(42)).isEmpty();
    }

    @Test
    void window_memory_evicts_the_oldest_messages() {
        ChatMemory memory = window(3);
        memory.add(UserMessage.from("hello"));
        memory.add(AiMessage.from("hi"));
        memory.add(UserMessage.from("sup"));
        assertThat(memory.messages()).containsExactly(UserMessage.from("hello"), AiMessage.from("hi"), UserMessage.from("sup"));

        memory.add(AiMessage.from("not much"));

        assertThat(memory.messages()).containsExactly(AiMessage.from("hi"), UserMessage.from("sup"), AiMessage.from("not much"));
        assertThat(store.getMessages("m1")).hasSize(3);
    }

    @Test
    void window_memory_keeps_the_system_message_and_replaces_it_with_a_new_one() {
        ChatMemory memory = window(3);
        SystemMessage system = SystemMessage.from("You are a helpful assistant");
        memory.add(system);
        memory.add(UserMessage.from("Hello"));
        memory.add(AiMessage.from("Hi, how can I help you?"));
        memory.add(UserMessage.from("Tell me a joke"));
        assertThat(memory.messages()).containsExactly(system, AiMessage.from("Hi, how can I help you?"), UserMessage.from("Tell me a joke"));

        memory.add(system); // the same one again: nothing changes
        assertThat(memory.messages()).containsExactly(system, AiMessage.from("Hi, how can I help you?"), UserMessage.from("Tell me a joke"));

        SystemMessage other = SystemMessage.from("You are an unhelpful assistant");
        memory.add(other);
        assertThat(memory.messages()).containsExactly(AiMessage.from("Hi, how can I help you?"), UserMessage.from("Tell me a joke"), other);
    }

    @Test
    void window_memory_with_system_message_first_keeps_it_first() {
        ChatMemory memory = MessageWindowChatMemory.builder().id("m1").maxMessages(5).alwaysKeepSystemMessageFirst(true)
                .chatMemoryStore(store).build();
        memory.add(UserMessage.from("Hello"));
        memory.add(SystemMessage.from("be brief"));
        memory.add(AiMessage.from("Hi"));

        assertThat(store.getMessages("m1")).containsExactly(SystemMessage.from("be brief"), UserMessage.from("Hello"), AiMessage.from("Hi"));
    }

    @Test
    void window_memory_keeps_a_system_message_in_the_middle_where_it_was_added() {
        ChatMemory memory = window(5);
        memory.add(UserMessage.from("Hello"));
        memory.add(SystemMessage.from("be brief"));
        memory.add(AiMessage.from("Hi"));

        assertThat(store.getMessages("m1")).containsExactly(UserMessage.from("Hello"), SystemMessage.from("be brief"), AiMessage.from("Hi"));
    }

    @Test
    void window_memory_evicts_tool_results_together_with_their_request() {
        ChatMemory memory = window(3);
        UserMessage question = UserMessage.from("How much is 2+2 and 3+3?");
        ToolExecutionRequest c1 = call("1", "calculator", "{\"a\":2,\"b\":2}");
        ToolExecutionRequest c2 = call("2", "calculator", "{\"a\":3,\"b\":3}");
        AiMessage calls = AiMessage.from(c1, c2);
        memory.add(question);
        memory.add(calls);
        memory.add(result(c1, "4"));
        assertThat(memory.messages()).containsExactly(question, calls, result(c1, "4"));

        memory.add(result(c2, "6"));
        assertThat(memory.messages()).containsExactly(calls, result(c1, "4"), result(c2, "6"));

        memory.add(AiMessage.from("2 + 2 = 4, 3 + 3 = 6"));
        assertThat(memory.messages()).containsExactly(AiMessage.from("2 + 2 = 4, 3 + 3 = 6"));
    }

    @Test
    void window_memory_evicting_a_request_before_its_result_arrives_keeps_only_the_system_message() {
        ChatMemory memory = window(2);
        SystemMessage system = SystemMessage.from("Use calculator for math questions");
        ToolExecutionRequest c1 = call("1", "calculator", "{\"a\":2,\"b\":2}");
        memory.add(system);
        memory.add(UserMessage.from("How much is 2+2?"));
        memory.add(AiMessage.from(c1));
        assertThat(memory.messages()).containsExactly(system, AiMessage.from(c1));

        memory.add(result(c1, "4"));

        assertThat(memory.messages()).containsExactly(system);
    }

    @Test
    void set_replaces_the_view_in_one_update() {
        ChatMemory memory = window(3);
        memory.add(UserMessage.from("first"), AiMessage.from("second"), AiMessage.from("3rd"));

        memory.set(UserMessage.from("world"), AiMessage.from("hi"));

        assertThat(memory.messages()).containsExactly(UserMessage.from("world"), AiMessage.from("hi"));
    }

    @Test
    void a_list_that_is_not_an_append_becomes_a_new_view_and_the_old_messages_stay_in_the_journal() {
        store.updateMessages("m1", List.of(UserMessage.from("a"), AiMessage.from("b"), UserMessage.from("c")));

        store.updateMessages("m1", List.of(UserMessage.from("a"), AiMessage.from("B (edited)"), UserMessage.from("c")));

        assertThat(store.getMessages("m1")).containsExactly(UserMessage.from("a"), AiMessage.from("B (edited)"), UserMessage.from("c"));
        var state = tenant.open("m1").state();
        assertThat(state.messages()).hasSize(6);
        assertThat(state.contextStart()).isEqualTo(3);
    }

    @Test
    void an_empty_list_empties_the_view() {
        store.updateMessages("m1", List.of(UserMessage.from("a")));
        store.updateMessages("m1", List.of());
        assertThat(store.getMessages("m1")).isEmpty();
    }

    @Test
    void tool_requests_and_results_round_trip() {
        ToolExecutionRequest c1 = call("call_1", "weather", "{\"city\":\"Oslo\"}");
        ToolExecutionRequest c2 = call(null, "clock", "");
        List<ChatMessage> messages = List.of(UserMessage.from("weather and time?"),
                AiMessage.builder().text("checking").thinking("two tools").toolExecutionRequests(List.of(c1, c2)).build(),
                result(c1, "rain"),
                ToolExecutionResultMessage.builder().toolName("clock").text("boom").isError(true).build(),
                AiMessage.from("rain, and the clock is broken"));

        store.updateMessages("m1", messages);

        List<ChatMessage> back = store.getMessages("m1");
        assertThat(back).hasSize(5);
        assertThat(back.get(1)).isEqualTo(messages.get(1));
        assertThat(back.get(2)).isEqualTo(result(c1, "rain"));
        assertThat(back.get(3)).isEqualTo(ToolExecutionResultMessage.builder().toolName("clock").text("boom").isError(true).build());
        assertThat(back).isEqualTo(messages);
    }

    @Test
    void a_tool_result_without_its_request_is_refused_and_nothing_is_written() {
        ToolExecutionRequest c1 = call("1", "calculator", "{}");
        store.updateMessages("m1", List.of(UserMessage.from("hi")));

        assertThatThrownBy(() -> store.updateMessages("m1", List.of(UserMessage.from("hi"), result(c1, "4"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not follow the AI message");
        assertThat(store.getMessages("m1")).containsExactly(UserMessage.from("hi"));
    }

    @Test
    void results_added_in_another_order_than_the_calls_pair_by_id() {
        ToolExecutionRequest c1 = call("1", "a", "{}");
        ToolExecutionRequest c2 = call("2", "b", "{}");
        List<ChatMessage> list = new ArrayList<>(List.of(UserMessage.from("go"), AiMessage.from(c1, c2)));
        store.updateMessages("m1", list);
        list.add(result(c2, "B"));
        store.updateMessages("m1", list);
        list.add(result(c1, "A"));
        store.updateMessages("m1", list);
        list.add(AiMessage.from("done"));
        store.updateMessages("m1", list);

        assertThat(store.getMessages("m1")).containsExactly(UserMessage.from("go"), AiMessage.from(c1, c2), result(c1, "A"),
                result(c2, "B"), AiMessage.from("done"));
        assertThat(tenant.open("m1").state().contextStart()).isZero(); // no rewrite happened
    }
}
