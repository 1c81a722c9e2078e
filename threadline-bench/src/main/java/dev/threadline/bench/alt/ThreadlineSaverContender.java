package dev.threadline.bench.alt;

import dev.langchain4j.data.message.ChatMessage;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.Threadline;
import dev.threadline.langgraph4j.ThreadlineSaver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.AsyncNodeAction;
import org.bsc.langgraph4j.langchain4j.serializer.std.LC4jStateSerializer;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.prebuilt.MessagesStateGraph;

/**
 * LangGraph4j with the {@code threadline-langgraph4j} adapter's {@link ThreadlineSaver} on a Threadline
 * SQLite file: the same one-node graph over {@link MessagesState} as {@link LangGraph4jContender}, with the
 * same serializer; a step is one {@code invoke} carrying the new message, whose checkpoint the saver
 * journals as what changed (the new message). LangGraph4j itself still copies the whole state through
 * the serializer at every checkpoint, so the step's time keeps that part of the framework's cost.
 */
public final class ThreadlineSaverContender implements Contender {
    private final OnThreadline tl;
    private final CompiledGraph<MessagesState<ChatMessage>> graph;

    public ThreadlineSaverContender(Path file) throws GraphStateException {
        this.tl = new OnThreadline(file);
        this.graph = graph(tl.runtime);
    }

    private static CompiledGraph<MessagesState<ChatMessage>> graph(Threadline runtime) throws GraphStateException {
        LC4jStateSerializer<MessagesState<ChatMessage>> serializer = new LC4jStateSerializer<>(MessagesState::new);
        StateGraph<MessagesState<ChatMessage>> g = new MessagesStateGraph<ChatMessage>(serializer)
                .addNode("agent", AsyncNodeAction.node_async(state -> Map.of()))
                .addEdge(StateGraph.START, "agent")
                .addEdge("agent", StateGraph.END);
        return g.compile(CompileConfig.builder().checkpointSaver(new ThreadlineSaver(runtime.defaultTenant(), serializer)).build());
    }

    private static RunnableConfig thread(String session) {
        return RunnableConfig.builder().threadId(session).build();
    }

    @Override
    public String name() {
        return "LangGraph4j ThreadlineSaver (sqlite)";
    }

    @Override
    public String durability() {
        return OnThreadline.durability();
    }

    @Override
    public List<String> cannot() {
        return List.of();
    }

    /** One invoke carrying the whole history (one checkpoint), as for the MemorySaver contender. */
    @Override
    public void prefill(String session, List<BenchMessage> history) {
        if (!history.isEmpty()) {
            graph.invoke(Map.of(MessagesState.MESSAGES_STATE, history.stream().map(LangChain4jContender::toChatMessage).toList()),
                    thread(session));
        }
    }

    @Override
    public void step(String session, BenchMessage message) {
        graph.invoke(Map.of(MessagesState.MESSAGES_STATE, LangChain4jContender.toChatMessage(message)), thread(session));
    }

    @Override
    public Optional<Path> database() {
        return Optional.of(tl.file);
    }

    @Override
    public OptionalInt coldLoad(String session) throws Exception {
        try (Threadline fresh = tl.fresh()) {
            return OptionalInt.of(graph(fresh).getState(thread(session)).state().messages().size());
        }
    }

    /** The thread's latest state, as the graph holds it. */
    @Override
    public Object heldInMemory(String session) {
        return graph.getState(thread(session)).state();
    }

    @Override
    public long serializedBytes(String session) throws Exception {
        return tl.journalBytes(SessionInfo.DEFAULT_TENANT, ThreadlineSaver.sessionId(session));
    }

    @Override
    public void close() {
        tl.close();
    }
}
