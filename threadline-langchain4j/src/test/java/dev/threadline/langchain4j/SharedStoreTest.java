package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.threadline.core.Threadline;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runtimes on one SQLite file, as two processes would share it: one memory, nothing lost, and it
 * survives both. (No lease linger: each add hands the session over at once.)
 */
class SharedStoreTest {

    @Test
    void two_runtimes_adding_to_one_memory_lose_nothing_and_a_third_reads_it_all(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("memory.db");
        try (Threadline a = Threadline.builder().store(SqliteStateStore.open(db)).leaseLinger(Duration.ZERO).build();
             Threadline b = Threadline.builder().store(SqliteStateStore.open(db)).leaseLinger(Duration.ZERO).build();
             ExecutorService pool = Executors.newFixedThreadPool(2)) {
            ThreadlineChatMemory ma = ThreadlineChatMemory.builder(a.tenant("acme")).id("shared").build();
            ThreadlineChatMemory mb = ThreadlineChatMemory.builder(b.tenant("acme")).id("shared").build();
            ma.add(UserMessage.from("start"));
            List<Future<?>> done = new ArrayList<>();
            done.add(pool.submit(() -> {
                for (int i = 0; i < 20; i++) {
                    ma.add(UserMessage.from("a" + i));
                }
            }));
            done.add(pool.submit(() -> {
                for (int i = 0; i < 20; i++) {
                    mb.add(AiMessage.from("b" + i));
                }
            }));
            for (Future<?> f : done) {
                f.get();
            }
            var tool = call("c1", "clock", "{}");
            ma.add(AiMessage.from(tool));   // the request from one runtime,
            mb.add(result(tool, "9:00")); // its result from the other
        }
        try (Threadline c = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            List<ChatMessage> all = new ThreadlineChatMemoryStore(c.tenant("acme")).getMessages("shared");
            assertThat(all).hasSize(43);
            assertThat(all.stream().filter(m -> m instanceof UserMessage u && u.singleText().startsWith("a")).map(m -> ((UserMessage) m).singleText()))
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(i -> "a" + i).toList());
            assertThat(all.stream().filter(m -> m instanceof AiMessage ai && ai.text() != null && ai.text().startsWith("b")).map(m -> ((AiMessage) m).text()))
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(i -> "b" + i).toList());
            assertThat(all.subList(41, 43)).containsExactly(AiMessage.from(call("c1", "clock", "{}")), result(call("c1", "clock", "{}"), "9:00"));
        }
    }
}
