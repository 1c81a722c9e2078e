package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.core.Threadline;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Many threads on one memory: nothing is lost and each thread's messages keep their order. */
class ConcurrencyTest {
    private static final int THREADS = 8;
    private static final int EACH = 40;
    private final Threadline tl = Fixtures.runtime();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void concurrent_adders_lose_nothing_and_keep_their_order() throws Exception {
        ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tl.tenant("acme")).id("shared").build();
        runAll(t -> {
            for (int i = 0; i < EACH; i++) {
                memory.add(UserMessage.from(t + ":" + i));
            }
        });

        List<ChatMessage> all = memory.messages();
        assertThat(all).hasSize(THREADS * EACH);
        for (int t = 0; t < THREADS; t++) {
            String prefix = t + ":";
            List<String> mine = all.stream().map(m -> ((UserMessage) m).singleText()).filter(s -> s.startsWith(prefix)).toList();
            assertThat(mine).containsExactlyElementsOf(IntStream.range(0, EACH).mapToObj(i -> prefix + i).toList());
        }
    }

    @Test
    void parallel_tool_results_of_one_request_all_land_paired_with_it() throws Exception {
        ThreadlineChatMemory memory = ThreadlineChatMemory.builder(tl.tenant("acme")).id("tools").build();
        List<ToolExecutionRequest> calls = IntStream.range(0, THREADS).mapToObj(i -> call("c" + i, "tool" + i, "{}")).toList();
        memory.add(UserMessage.from("run them all"));
        memory.add(AiMessage.from(calls));

        runAll(t -> memory.add(result(calls.get(t), "r" + t)));
        memory.add(AiMessage.from("all done"));

        List<ChatMessage> all = memory.messages();
        assertThat(all).hasSize(THREADS + 3);
        assertThat(all.subList(2, 2 + THREADS)).extracting(m -> ((ToolExecutionResultMessage) m).text())
                .containsExactlyElementsOf(IntStream.range(0, THREADS).mapToObj(i -> "r" + i).toList());
        assertThat(memory.session().state().messages().get(2).toolResults()).hasSize(THREADS);
    }

    @Test
    void langchain4j_window_memories_in_parallel_over_the_store_keep_the_journal_whole() throws Exception {
        ThreadlineChatMemoryStore store = new ThreadlineChatMemoryStore(tl.tenant("acme"));
        runAll(t -> {
            var memory = dev.langchain4j.memory.chat.MessageWindowChatMemory.builder().id("racy").maxMessages(1000)
                    .chatMemoryStore(store).build();
            for (int i = 0; i < 10; i++) {
                memory.add(UserMessage.from(t + ":" + i));
            }
        });
        // MessageWindowChatMemory reads, then writes the whole list: racing writers overwrite each other's view
        // (as with any store), but every message any of them wrote is still in the journal.
        var transcript = tl.tenant("acme").open("racy").state().messages();
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < 10; i++) {
                String text = t + ":" + i;
                assertThat(transcript).anyMatch(m -> m.text().equals(text));
            }
        }
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
