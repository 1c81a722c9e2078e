package dev.threadline.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.prebuilt.MessagesStateGraph;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A write costs the step's news, not the history; concurrent threads and savers lose nothing. */
class GrowthAndConcurrencyTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();

    @AfterEach
    void close() {
        tl.close();
    }

    /** One node, no output: a step is one invoke carrying the new message (an appender channel). */
    private CompiledGraph<MessagesState<String>> chat(ThreadlineSaver saver) throws Exception {
        return new MessagesStateGraph<String>(new ObjectStreamStateSerializer<>(MessagesState::new))
                .addNode("agent", node_async(s -> Map.of()))
                .addEdge(START, "agent")
                .addEdge("agent", END)
                .compile(CompileConfig.builder().checkpointSaver(saver).build());
    }

    private ThreadlineSaver saver() {
        return new ThreadlineSaver(tl.tenant("acme"), new ObjectStreamStateSerializer<>(MessagesState::new));
    }

    @Test
    void the_bytes_a_step_journals_do_not_grow_with_the_history() throws Exception {
        var app = chat(saver());
        var thread = RunnableConfig.builder().threadId("long").build();
        app.invoke(Map.of("messages", "hello"), thread);
        Session session = tl.tenant("acme").open("long");
        List<Long> costs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            long was = bytes(session.history().journal());
            app.invoke(Map.of("messages", "message number " + (1000 + i)), thread); // distinct: an appender channel drops repeats
            costs.add(bytes(session.history().journal()) - was);
        }
        assertThat(app.getState(thread).state().messages()).hasSize(301);
        long early = costs.subList(5, 30).stream().mapToLong(Long::longValue).max().orElseThrow();
        long late = costs.subList(270, 300).stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(late).isLessThanOrEqualTo(early + 16).isLessThan(2_000);
    }

    @Test
    void threads_in_parallel_each_keep_their_whole_history() throws Exception {
        var app = chat(saver());
        int threads = 6;
        int steps = 15;
        runAll(threads, t -> {
            var config = RunnableConfig.builder().threadId("t" + t).build();
            for (int i = 0; i < steps; i++) {
                app.invoke(Map.of("messages", t + ":" + i), config);
            }
        });
        for (int t = 0; t < threads; t++) {
            int thread = t;
            assertThat(app.getState(RunnableConfig.builder().threadId("t" + t).build()).state().messages())
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, steps).mapToObj(i -> thread + ":" + i).toList());
        }
    }

    @Test
    void two_savers_on_one_thread_in_turn_see_each_others_checkpoints() throws Exception {
        var a = chat(saver());
        var b = chat(saver());
        var thread = RunnableConfig.builder().threadId("shared").build();
        for (int i = 0; i < 10; i++) {
            (i % 2 == 0 ? a : b).invoke(Map.of("messages", "m" + i), thread);
        }
        assertThat(a.getState(thread).state().messages()).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, 10).mapToObj(i -> "m" + i).toList());
        assertThat(b.getStateHistory(thread)).hasSameSizeAs(a.getStateHistory(thread));
    }

    private static long bytes(List<StoredEvent> events) {
        return events.stream().mapToLong(e -> Json.write(e.event()).length()).sum();
    }

    private interface Body {
        void run(int thread) throws Exception;
    }

    private static void runAll(int n, Body body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(n)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < n; t++) {
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
