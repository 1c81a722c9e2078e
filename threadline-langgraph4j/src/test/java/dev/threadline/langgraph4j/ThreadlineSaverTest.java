package dev.threadline.langgraph4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncEdgeAction.edge_async;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.prebuilt.MessagesState;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The saver contract as LangGraph4j's own tests state it for MemorySaver, on Threadline. */
class ThreadlineSaverTest {
    static final int STEPS = 5;
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final Tenant tenant = tl.tenant("acme");

    @AfterEach
    void close() {
        tl.close();
    }

    /** A MessagesState with a step counter. */
    static final class Steps extends MessagesState<String> {
        Steps(Map<String, Object> data) {
            super(data);
        }

        int steps() {
            return this.<Integer>value("steps").orElse(0);
        }
    }

    static StateGraph<Steps> loop() throws Exception {
        return new StateGraph<>(MessagesState.SCHEMA, new ObjectStreamStateSerializer<>(Steps::new))
                .addNode("agent_1", node_async(s -> Map.of("steps", s.steps() + 1, "messages", "agent_1:step " + (s.steps() + 1))))
                .addEdge(START, "agent_1")
                .addConditionalEdges("agent_1", edge_async(s -> s.steps() >= STEPS ? "exit" : "next"), Map.of("next", "agent_1", "exit", END));
    }

    @Test
    void put_list_get_and_release() throws Exception {
        var saver = new ThreadlineSaver(tenant, new ObjectStreamStateSerializer<>(AgentState::new));
        var config = RunnableConfig.builder().build();
        assertThat(saver.list(config)).isEmpty();
        assertThat(saver.get(config)).isEmpty();

        saver.put(config, Checkpoint.builder().state(Map.of("input", "test2")).nodeId(START).nextNodeId("agent_1").build());
        RunnableConfig second = saver.put(config, Checkpoint.builder().state(Map.of("input", "test2", "agent_1:prop1", "agent_1:test"))
                .nodeId("agent_1").nextNodeId(END).build());

        var checkpoints = saver.list(config);
        assertThat(checkpoints).hasSize(2);
        Checkpoint last = saver.get(config).orElseThrow();
        assertThat(last.getNodeId()).isEqualTo("agent_1");
        assertThat(last.getState()).containsEntry("agent_1:prop1", "agent_1:test").containsEntry("input", "test2");
        assertThat(last.getId()).isEqualTo(second.checkPointId().orElseThrow());
        assertThat(checkpoints.iterator().next().getId()).isEqualTo(last.getId()); // newest first

        var tag = saver.release(config);
        assertThat(tag.checkpoints()).extracting(Checkpoint::getId).containsExactlyElementsOf(checkpoints.stream().map(Checkpoint::getId).toList());
        assertThat(saver.list(config)).isEmpty();
    }

    @Test
    void a_thread_runs_to_its_end_and_a_resubmit_resumes_from_its_last_checkpoint_in_another_saver() throws Exception {
        StateGraph<Steps> graph = loop();
        CompiledGraph<Steps> app = graph.compile(CompileConfig.builder().checkpointSaver(new ThreadlineSaver(tenant, graph.getStateSerializer())).build());
        var thread1 = RunnableConfig.builder().threadId("thread_1").build();

        Steps done = app.invoke(Map.of("steps", 0), thread1).orElseThrow();
        assertThat(done.steps()).isEqualTo(STEPS);
        assertThat(done.messages()).containsExactly("agent_1:step 1", "agent_1:step 2", "agent_1:step 3", "agent_1:step 4", "agent_1:step 5");

        var thread2 = RunnableConfig.builder().threadId("thread_2").build();
        assertThat(app.invoke(Map.of(), thread2).orElseThrow().messages()).hasSize(STEPS);

        // another saver on the same tenant (as another process would be) resumes thread 1
        CompiledGraph<Steps> again = graph.compile(CompileConfig.builder().checkpointSaver(new ThreadlineSaver(tenant, graph.getStateSerializer())).build());
        assertThat(again.getState(thread1).state().messages()).hasSize(STEPS);
        Steps resumed = again.invoke(Map.of(), thread1).orElseThrow();
        assertThat(resumed.steps()).isEqualTo(STEPS + 1);
        assertThat(resumed.messages()).hasSize(STEPS + 1).last().isEqualTo("agent_1:step 6");
    }

    @Test
    void past_state_can_be_viewed_and_updated() throws Exception {
        StateGraph<Steps> graph = loop();
        CompiledGraph<Steps> app = graph.compile(CompileConfig.builder().checkpointSaver(new ThreadlineSaver(tenant, graph.getStateSerializer())).build());
        var thread = RunnableConfig.builder().threadId("t").build();
        app.invoke(Map.of("steps", 0), thread);

        List<org.bsc.langgraph4j.state.StateSnapshot<Steps>> history = List.copyOf(app.getStateHistory(thread));
        assertThat(history).hasSizeGreaterThanOrEqualTo(STEPS);
        var past = history.get(history.size() - 2); // an early checkpoint
        int pastMessages = past.state().messages().size();

        RunnableConfig updated = app.updateState(past.config(), Map.of("messages", "edited"));

        var state = app.getState(updated).state();
        assertThat(state.messages()).hasSize(pastMessages + 1).last().isEqualTo("edited");
        assertThat(app.getStateHistory(thread)).hasSize(history.size()); // replaced in place, not added
    }
}
