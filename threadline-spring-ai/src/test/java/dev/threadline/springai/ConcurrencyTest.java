package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;

/** Concurrent savers and the cost of a save. */
class ConcurrencyTest {
    private static final int THREADS = 8;
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tl.tenant("acme"));

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void savers_of_separate_conversations_in_parallel_each_keep_all_their_messages_in_order() throws Exception {
        runAll(t -> {
            List<Message> list = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                list.add(new UserMessage(t + ":" + i));
                repository.saveAll("c" + t, list);
            }
        });
        for (int t = 0; t < THREADS; t++) {
            assertThat(repository.findByConversationId("c" + t)).extracting(Message::getText)
                    .containsExactlyElementsOf(expected(t));
        }
        assertThat(repository.findConversationIds()).hasSize(THREADS);
    }

    private static List<String> expected(int t) {
        return java.util.stream.IntStream.range(0, 30).mapToObj(i -> t + ":" + i).toList();
    }

    @Test
    void racing_window_memories_on_one_conversation_never_lose_a_message_from_the_journal() throws Exception {
        runAll(t -> {
            ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(1000).build();
            for (int i = 0; i < 10; i++) {
                memory.add("shared", new UserMessage(t + ":" + i));
            }
        });
        // Spring AI's window memory reads, then saves the whole list: racing savers overwrite each other's view
        // (as with any repository), but every message any of them saved is still in the journal.
        var transcript = tl.tenant("acme").open("shared").state().messages();
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < 10; i++) {
                String text = t + ":" + i;
                assertThat(transcript).anyMatch(m -> m.text().equals(text));
            }
        }
    }

    @Test
    void a_save_costs_the_new_message_not_the_history() {
        ChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).maxMessages(10).build();
        memory.add("c1", new UserMessage("start"));
        Session session = tl.tenant("acme").open("c1");
        List<Long> costs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long was = bytes(session.history().journal());
            memory.add("c1", i % 2 == 0 ? new AssistantMessage("answer " + (i % 10)) : new UserMessage("question " + (i % 10)));
            costs.add(bytes(session.history().journal()) - was);
        }
        long early = costs.subList(10, 40).stream().mapToLong(Long::longValue).max().orElseThrow();
        long late = costs.subList(270, 300).stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(late).isLessThanOrEqualTo(early + 16).isLessThan(600);
    }

    private static long bytes(List<StoredEvent> events) {
        return events.stream().mapToLong(e -> Json.write(e.event()).length()).sum();
    }

    private interface Body {
        void run(int thread) throws Exception;
    }

    private static void runAll(Body body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    body.run(thread);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
