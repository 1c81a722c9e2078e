package dev.threadline.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import dev.threadline.core.Threadline;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.harness.docs.DocSnippets;
import dev.threadline.langgraph4j.ThreadlineSaver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.prebuilt.MessagesStateGraph;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.junit.jupiter.api.Test;

/** The LangGraph4j snippet of docs/integrations.md is the code below, compiled and run. */
class IntegrationsDocTest {
    @Test
    void theDocsSnippetIsThisCompiledCode() throws Exception {
        DocSnippets.assertSnippetIsCompiled("langgraph4j",
                Path.of("src/test/java/dev/threadline/langgraph4j/IntegrationsDocTest.java"));
    }

    @Test
    void theSnippetCheckpointsAThreadInThreadline() throws Exception {
        try (Threadline threadline = Threadline.builder().store(new InMemoryStateStore()).build()) {
            // snippet: langgraph4j
            var graph = new MessagesStateGraph<String>(new ObjectStreamStateSerializer<>(MessagesState::new))
                    .addNode("agent", node_async(state -> Map.of("messages", "hello, " + state.lastMessage().orElse("?"))))
                    .addEdge(START, "agent")
                    .addEdge("agent", END);
            var saver = new ThreadlineSaver(threadline.tenant("acme"), graph.getStateSerializer());
            var app = graph.compile(CompileConfig.builder().checkpointSaver(saver).build());
            app.invoke(Map.of("messages", "hi"), RunnableConfig.builder().threadId("user-7").build());
            // end snippet
            assertThat(app.getState(RunnableConfig.builder().threadId("user-7").build()).state().messages())
                    .isEqualTo(List.of("hi", "hello, hi"));
            assertThat(threadline.tenant("acme").find("user-7")).isPresent();
        }
    }
}
