package dev.threadline.bench.alt;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import java.nio.charset.StandardCharsets;
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
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.langchain4j.serializer.std.LC4jStateSerializer;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.prebuilt.MessagesStateGraph;

/**
 * LangGraph4j with its in-memory checkpoint saver ({@link MemorySaver}): a graph of one node over
 * {@link MessagesState} (LangChain4j messages in an appender channel, with the LangChain4j state
 * serializer of langgraph4j-langchain4j), compiled with the saver. A step is one {@code invoke} on the
 * session's thread carrying the new message: the graph resumes from the thread's last checkpoint,
 * appends the message and saves a checkpoint of the whole state (which LangGraph4j clones through the
 * state serializer: the whole list is serialized and deserialized at every checkpoint). Its
 * PostgreSQL saver is not run: no PostgreSQL server is available on the benchmark machine.
 */
public final class LangGraph4jContender implements Contender {
    private final MemorySaver saver = new MemorySaver();
    private final CompiledGraph<MessagesState<ChatMessage>> graph;

    public LangGraph4jContender() throws GraphStateException {
        StateGraph<MessagesState<ChatMessage>> g = new MessagesStateGraph<ChatMessage>(new LC4jStateSerializer<>(MessagesState::new))
                .addNode("agent", AsyncNodeAction.node_async(state -> Map.of())) // the model's reply arrives as input
                .addEdge(StateGraph.START, "agent")
                .addEdge("agent", StateGraph.END);
        this.graph = g.compile(CompileConfig.builder().checkpointSaver(saver).build());
    }

    private static RunnableConfig thread(String session) {
        return RunnableConfig.builder().threadId(session).build();
    }

    @Override
    public String name() {
        return "LangGraph4j MemorySaver";
    }

    @Override
    public String durability() {
        return "none: checkpoints live in the process's heap";
    }

    @Override
    public List<String> cannot() {
        return List.of("nothing survives the process, so no bytes on disk and no cold load",
                "its PostgreSQL saver was not measured: no PostgreSQL server on this machine");
    }

    /**
     * Writes the history with one invoke (one checkpoint holding it all). Building it one step at a
     * time, as a conversation does, would leave one full copy of the list per checkpoint: about
     * L&sup2;/2 message copies, tens of gigabytes at 10,000 messages. So the heap measured here is a lower bound.
     */
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

    /** How many messages the thread's latest state holds (to check that steps accumulate). */
    public int messages(String session) {
        return graph.getState(thread(session)).state().messages().size();
    }

    @Override
    public Optional<Path> database() {
        return Optional.empty();
    }

    @Override
    public OptionalInt coldLoad(String session) {
        return OptionalInt.empty();
    }

    /** Every checkpoint the saver keeps for the thread. */
    @Override
    public Object heldInMemory(String session) throws Exception {
        return saver.list(thread(session));
    }

    @Override
    public long serializedBytes(String session) {
        List<ChatMessage> messages = graph.getState(thread(session)).state().messages();
        return ChatMessageSerializer.messagesToJson(messages).getBytes(StandardCharsets.UTF_8).length;
    }

    @Override
    public void close() {
        // nothing to release: the saver is garbage with this object
    }
}
