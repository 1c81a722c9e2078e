package dev.threadline.core.runtime;

import dev.threadline.core.EngineAccess;

import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.Threadline;
import dev.threadline.core.internal.engine.state.ToolResultOutcome;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.skill.VariableWrite;
import dev.threadline.core.skill.builtin.MeetingMinutesSkill;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.state.State;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import dev.threadline.core.store.SessionKey;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Regression: two tool calls in one assistant reply that wrote the same variable (two
 * {@code meeting_minutes add}) lost one write: both skills started from the same variables and each
 * proposed the whole new list, so the result recorded second replaced the first. Now writes apply to
 * the variables as they are when each result is recorded, and an add is an append.
 */
class ParallelToolCallsWritesToOneVariableAreBothKeptTest {

    private static ContentBlock.ToolUse add(String id, String note) {
        return new ContentBlock.ToolUse(id, MeetingMinutesSkill.NAME, Json.parse("{\"action\":\"add\",\"note\":\"" + note + "\"}", "input"));
    }

    /** Any user message: one reply with two adds (ids mm-1, mm-2 in the first turn); after their results: "done". */
    private static ScriptedModel twoAdds() {
        return ScriptedModel.of(req -> {
            int n = req.messages().size();
            Message last = req.messages().get(n - 1);
            String turn = n == 1 ? "" : "-" + n;
            return last.toolResults().isEmpty() ? TestSkills.toolCalls(add("mm-1" + turn, "first"), add("mm-2" + turn, "second"))
                    : TestSkills.text("done");
        });
    }

    private static List<String> notes(State s) {
        List<String> out = new ArrayList<>();
        s.variable(MeetingMinutesSkill.VARIABLE).forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void parallelToolCallsWritesToOneVariableAreBothKept() throws Exception {
        // Deterministic order: the call adding "second" runs only once the result of "first" is recorded,
        // yet it started from the same (empty) variables, as parallel calls do.
        CountDownLatch firstRecorded = new CountDownLatch(1);
        MeetingMinutesSkill minutes = new MeetingMinutesSkill();
        Skill gated = new TestSkills.Simple(MeetingMinutesSkill.NAME, minutes.inputSchema().toString()) {
            @Override
            public SkillResult execute(ExecutionContext c) throws InterruptedException {
                if (c.arguments().path("note").asText().equals("second")
                        && !firstRecorded.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the first note was never recorded");
                }
                return minutes.execute(c);
            }
        };
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(twoAdds()).skill(gated).build()) {
            tl.defaultTenant().addListener((id, events, state) -> {
                if (events.stream().anyMatch(e -> e.event() instanceof Event.ToolCallEnded end && end.toolUseId().equals("mm-1"))) {
                    firstRecorded.countDown();
                }
            });
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            TurnResult r = s.submit("two notes");

            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(notes(s.state())).containsExactly("first", "second");
            // both saw no notes when they ran; each counts from what it saw
            assertThat(s.state().messages().get(2).toolResults()).extracting(ContentBlock.ToolResult::content)
                    .containsExactly("Noted (1 note): first", "Noted (1 note): second");
            // the journal holds resulting values, so a fold (and a reload) gives the same list
            assertThat(notes(Reducer.fold(s.history().journal()))).containsExactly("first", "second");
            Engines.evict(tl, "s1");
            assertThat(notes(s.state())).containsExactly("first", "second");
        }
    }

    @Test
    void twoMeetingMinutesAddsRunningFreelyInParallelBothKeepTheirNote() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(twoAdds())
                .skill(new MeetingMinutesSkill()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            for (int turn = 0; turn < 10; turn++) {
                s.submit("two notes");
            }
            List<String> notes = notes(s.state());
            assertThat(notes).hasSize(20);
            assertThat(notes.stream().filter("first"::equals)).hasSize(10);
            assertThat(notes.stream().filter("second"::equals)).hasSize(10);
        }
    }

    @Test
    void writesProposedFromOneStateApplyInTheOrderTheResultsAreRecorded() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).build()) {
            tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            SessionKey K = Engines.key("s1");
            Engines.inCommand(tl, "s1", C -> {
                StateManager states = EngineAccess.states(tl);
                states.update(K, CheckpointSource.INPUT, C, s -> List.of(new Event.UserMessageReceived(Message.user("go"))));
                Message ask = Message.assistant(List.of(add("a", "x"), add("b", "y"), add("c", "z")), StopReason.TOOL_USE, Usage.ZERO);
                states.update(K, CheckpointSource.LOOP, C, s -> List.of(new Event.AssistantMessageReceived(ask)));
                Map<String, JsonNode> temp = new HashMap<>();

                // recorded in the order b, c, a; all three were computed before any was recorded
                states.handleToolResult(K, C, new Event.ToolCallCompleted("b", "ok", false),
                        List.of(VariableWrite.append(VariableScope.SESSION, "list", TextNode.valueOf("y")),
                                VariableWrite.append(VariableScope.TEMP, "seen", TextNode.valueOf("y"))), temp);
                states.handleToolResult(K, C, new Event.ToolCallCompleted("c", "ok", false),
                        List.of(VariableWrite.append(VariableScope.SESSION, "list", TextNode.valueOf("z")),
                                VariableWrite.set(VariableScope.SESSION, "last", TextNode.valueOf("z")),
                                VariableWrite.append(VariableScope.TEMP, "seen", TextNode.valueOf("z"))), temp);
                ToolResultOutcome last = states.handleToolResult(K, C, new Event.ToolCallCompleted("a", "ok", false),
                        List.of(VariableWrite.append(VariableScope.SESSION, "list", TextNode.valueOf("x")),
                                VariableWrite.set(VariableScope.SESSION, "last", TextNode.valueOf("x"))), temp);

                State s = ((ToolResultOutcome.Accepted) last).commit().state();
                assertThat(s.variable("list")).isEqualTo(Json.parse("[\"y\",\"z\",\"x\"]", "t"));
                assertThat(s.variable("last")).isEqualTo(TextNode.valueOf("x")); // a set replaces what is there when recorded
                assertThat(temp.get("seen")).isEqualTo(Json.parse("[\"y\",\"z\"]", "t"));
                assertThat(s.pending()).isEmpty();
                assertThat(store.readOwn(K, 1, Long.MAX_VALUE)).extracting(StoredEvent::event)
                        .filteredOn(e -> e instanceof Event.VariablesChanged).last()
                        .isEqualTo(new Event.VariablesChanged(VariableScope.SESSION,
                                Map.of("list", Json.parse("[\"y\",\"z\",\"x\"]", "t"), "last", TextNode.valueOf("x")), List.of()));
                return null;
            });
        }
    }

    @Test
    void anAppendToAValueThatIsNotAnArrayMakesThatCallAnErrorAndChangesNothing() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).build()) {
            tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            SessionKey K = Engines.key("s1");
            Engines.inCommand(tl, "s1", C -> {
                StateManager states = EngineAccess.states(tl);
                states.update(K, CheckpointSource.INPUT, C, s -> List.of(new Event.UserMessageReceived(Message.user("go")),
                        new Event.VariablesChanged(VariableScope.SESSION, Map.of("count", IntNode.valueOf(3)), List.of())));
                Message ask = Message.assistant(List.of(add("a", "x"), add("b", "y")), StopReason.TOOL_USE, Usage.ZERO);
                states.update(K, CheckpointSource.LOOP, C, s -> List.of(new Event.AssistantMessageReceived(ask)));
                Map<String, JsonNode> temp = new HashMap<>();

                states.handleToolResult(K, C, new Event.ToolCallCompleted("a", "Noted", false),
                        List.of(VariableWrite.set(VariableScope.SESSION, "other", TextNode.valueOf("v")),
                                VariableWrite.append(VariableScope.SESSION, "count", TextNode.valueOf("x")),
                                VariableWrite.set(VariableScope.TEMP, "t", TextNode.valueOf("v"))), temp);
                assertThat(states.handleToolResult(K, C, new Event.ToolCallCompleted("b", "fine", false), List.of(), temp)
                        .accepted()).isTrue();
                State s = states.get(K);

                ContentBlock.ToolResult failed = s.messages().get(2).toolResults().get(0);
                assertThat(failed.isError()).isTrue();
                assertThat(failed.content()).contains("'count'").contains("number").contains("not an array")
                        .contains("none of its variable changes were made");
                assertThat(s.variable("count")).isEqualTo(IntNode.valueOf(3));
                assertThat(s.variables()).doesNotContainKey("other");
                assertThat(temp).isEmpty();
                assertThat(s.messages().get(2).toolResults().get(1).content()).isEqualTo("fine");
                return null;
            });
        }
    }

    @Test
    void aRefusedResultMakesNoTempWrite() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).build()) {
            tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            SessionKey K = Engines.key("s1");
            Engines.inCommand(tl, "s1", C -> {
                StateManager states = EngineAccess.states(tl);
                Map<String, JsonNode> temp = new HashMap<>();
                ToolResultOutcome o = states.handleToolResult(K, C, new Event.ToolCallCompleted("nope", "x", false),
                        List.of(VariableWrite.set(VariableScope.TEMP, "t", TextNode.valueOf("v"))), temp);
                assertThat(o.accepted()).isFalse();
                assertThat(temp).isEmpty();
                return null;
            });
        }
    }
}
