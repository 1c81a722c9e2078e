package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The journal is never rewritten: what an update appends is the new message and a constant, whatever
 * the length of the history, and the events written before stay byte for byte.
 */
class JournalGrowthTest {
    private static final int CONSTANT = 400; // TurnCompleted and a view-start variable, in JSON
    private final Threadline tl = Fixtures.runtime();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void the_memory_appends_only_each_new_message() {
        ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tl.tenant("acme")).id("m1").maxMessages(10).build();
        memory.add(SystemMessage.from("be brief"));
        assertGrowsByTheNewMessageOnly(memory.session(), memory::add, 300);
    }

    @Test
    void langchain4j_window_memory_over_the_store_appends_only_each_new_message() {
        ThreadlineChatMemoryStore store = new ThreadlineChatMemoryStore(tl.tenant("acme"));
        ChatMemory memory = MessageWindowChatMemory.builder().id("m1").maxMessages(10).chatMemoryStore(store).build();
        memory.add(SystemMessage.from("be brief"));
        assertGrowsByTheNewMessageOnly(tl.tenant("acme").open("m1"), memory::add, 300);
    }

    @Test
    void a_store_given_the_growing_list_appends_only_what_is_new() {
        ThreadlineChatMemoryStore store = new ThreadlineChatMemoryStore(tl.tenant("acme"));
        List<ChatMessage> list = new ArrayList<>();
        list.add(UserMessage.from("start"));
        store.updateMessages("m1", list);
        Session session = tl.tenant("acme").open("m1");
        assertGrowsByTheNewMessageOnly(session, m -> {
            list.add(m);
            store.updateMessages("m1", list);
        }, 300);
    }

    private static void assertGrowsByTheNewMessageOnly(Session session, java.util.function.Consumer<ChatMessage> add, int steps) {
        List<StoredEvent> before = session.history().journal();
        List<Long> growth = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            ChatMessage m = message(i);
            long was = bytes(session.history().journal());
            add.accept(m);
            List<StoredEvent> now = session.history().journal();
            assertThat(now.subList(0, before.size())).isEqualTo(before); // nothing written before changes
            long grew = bytes(now) - was;
            assertThat(grew).as("step %d", i).isLessThanOrEqualTo(ChatMessageSerializer.messageToJson(m).length() * 2L + CONSTANT);
            growth.add(grew);
            before = now;
        }
        // the cost of a step does not grow with the history: late steps cost what early ones did
        long early = growth.subList(10, 40).stream().mapToLong(Long::longValue).max().orElseThrow();
        long late = growth.subList(steps - 30, steps).stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(late).isLessThanOrEqualTo(early + 16);
    }

    private static ChatMessage message(int i) {
        return i % 2 == 0 ? UserMessage.from("question number " + (i % 10)) : AiMessage.from("answer number " + (i % 10));
    }

    private static long bytes(List<StoredEvent> events) {
        return events.stream().mapToLong(e -> Json.write(e.event()).length()).sum();
    }

    @Test
    void a_tool_round_costs_the_request_and_results_not_the_history() {
        ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tl.tenant("acme")).id("tools").build();
        Session session = memory.session();
        List<Long> costs = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long was = bytes(session.history().journal());
            ToolExecutionRequest c = call("c" + i, "calc", "{\"n\":" + (i % 10) + "}");
            memory.add(UserMessage.from("compute " + (i % 10)));
            memory.add(AiMessage.from(c));
            memory.add(result(c, "" + (i % 10)));
            memory.add(AiMessage.from("it is " + (i % 10)));
            costs.add(bytes(session.history().journal()) - was);
        }
        assertThat(costs.get(59)).isLessThanOrEqualTo(costs.get(5) + 16);
    }
}
