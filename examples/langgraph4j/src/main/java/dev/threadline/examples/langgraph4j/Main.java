package dev.threadline.examples.langgraph4j;

import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncEdgeAction.edge_async;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import dev.threadline.core.Threadline;
import dev.threadline.langgraph4j.ThreadlineSaver;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;

/**
 * A LangGraph4j graph whose checkpoints live in Threadline ({@link ThreadlineSaver} on a SQLite file):
 * a node that appends one message per step and pauses every third step; a second runtime on the same
 * file (as after a restart) resumes the thread from its last checkpoint. Each checkpoint journals only
 * what changed (the new message), not the whole state. No model: the node is plain code.
 * Argument: a folder for the database (default: a new temporary one).
 */
public final class Main {

    /** The graph's state: LangGraph4j's MessagesState (an appender channel of messages) with a step counter. */
    public static final class Steps extends MessagesState<String> {
        public Steps(Map<String, Object> data) {
            super(data);
        }

        int steps() {
            return this.<Integer>value("steps").orElse(0);
        }
    }

    static StateGraph<Steps> graph() throws Exception {
        return new StateGraph<>(MessagesState.SCHEMA, new ObjectStreamStateSerializer<>(Steps::new))
                .addNode("agent", node_async(s -> Map.of("steps", s.steps() + 1, "messages", "step " + (s.steps() + 1))))
                .addEdge(START, "agent")
                .addConditionalEdges("agent", edge_async(s -> s.steps() % 3 == 0 ? "pause" : "next"), Map.of("next", "agent", "pause", END));
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-lg4j");
        Path db = dir.resolve("graphs.db");
        RunnableConfig thread = RunnableConfig.builder().threadId("thread-1").build();

        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) {
            Steps first = app(tl).invoke(Map.of("steps", 0), thread).orElseThrow();
            System.out.println("first run: " + first.messages());
        }
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // as after a restart
            CompiledGraph<Steps> app = app(tl);
            Steps resumed = app.invoke(Map.of(), thread).orElseThrow();
            System.out.println("resumed in a new runtime: " + resumed.messages().size() + " messages, last: " + resumed.lastMessage().orElseThrow());
            System.out.println("checkpoints of thread-1: " + app.getStateHistory(thread).size()
                    + ", journal events: " + tl.tenant("acme").open("thread-1").history().journal().size());
        }
    }

    private static CompiledGraph<Steps> app(Threadline tl) throws Exception {
        StateGraph<Steps> graph = graph();
        ThreadlineSaver saver = new ThreadlineSaver(tl.tenant("acme"), graph.getStateSerializer());
        return graph.compile(CompileConfig.builder().checkpointSaver(saver).build());
    }
}
