package dev.threadline.core.runtime;

import dev.threadline.core.EngineAccess;

import dev.threadline.core.Threadline;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import org.junit.jupiter.api.Test;

class BranchTest {

    private Threadline runtime() {
        return Threadline.builder().store(new InMemoryStateStore()).skill(TestSkills.echo())
                .model(ScriptedModel.of(req -> {
                    Message last = req.messages().get(req.messages().size() - 1);
                    return last.text().startsWith("echo ")
                            ? toolCall("t" + req.messages().size(), "echo", "{\"text\":\"" + last.text().substring(5) + "\"}")
                            : text("ack " + last.text() + last.toolResults().stream().map(r -> r.content()).toList());
                })).build();
    }

    @Test
    void forkSharesThePrefixAndLeavesTheParentUnchanged() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("one");
            long afterOne = s.state().seq();
            s.submit("two");
            State parentBefore = s.state();

            Session f = s.fork(afterOne, "s1-fork");
            f.submit("three");

            assertThat(s.state()).isEqualTo(parentBefore);
            assertThat(f.state().messages()).extracting(Message::text).containsExactly("one", "ack one[]", "three", "ack three[]");
            assertThat(EngineAccess.store(tl).readOwn(Engines.key("s1-fork"), 1, Long.MAX_VALUE)).first()
                    .satisfies(e -> assertThat(e.seq()).isEqualTo(afterOne + 1));
            assertThat(EngineAccess.store(tl).branches(Engines.key("s1"))).containsExactly("s1-fork");
        }
    }

    @Test
    void rewindContinuesOnANewBranchAndTheOldOneStaysListable() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("one");
            s.submit("two");
            Checkpoint afterOne = s.history().checkpoints().stream().filter(c -> c.preview().startsWith("assistant: ack one")).findFirst().orElseThrow();

            Session r = s.rewind(afterOne.seq());
            r.submit("other");

            assertThat(r.id()).isEqualTo("s1.r1");
            assertThat(r.state().messages()).extracting(Message::text).containsExactly("one", "ack one[]", "other", "ack other[]");
            assertThat(s.state().messages()).extracting(Message::text).containsExactly("one", "ack one[]", "two", "ack two[]");
            assertThat(tl.defaultTenant().sessions().items()).extracting(x -> x.info().id()).contains("s1", "s1.r1");
        }
    }

    @Test
    void aBranchFromInsideAToolCallClosesTheCallSoTheTranscriptStaysValid() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("echo hi");
            // the step that recorded the assistant's tool_use and ToolCallStarted, before the result
            Checkpoint mid = s.history().checkpoints().stream().filter(c -> c.preview().contains("-> echo")).findFirst().orElseThrow();
            assertThat(s.history().stateAt(mid.seq()).pending()).hasSize(1);

            Session f = s.fork(mid.seq());

            State st = f.state();
            assertThat(st.pending()).isEmpty();
            assertThat(st.isIdle()).isTrue();
            assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
            assertThat(st.messages().get(2).toolResults().get(0).content()).contains("cancelled");
            f.submit("after");
            assertThat(f.state().messages()).hasSize(5);
        }
    }

    @Test
    void aBranchAtAPositionThatIsNotACheckpointIsRefusedAndCreatesNothing() {
        try (Threadline tl = runtime()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("echo hi");
            List<Long> cps = s.history().checkpoints().stream().map(Checkpoint::seq).toList();
            long notACheckpoint = java.util.stream.LongStream.rangeClosed(1, s.state().seq()).filter(x -> !cps.contains(x)).findFirst().orElseThrow();
            assertThatThrownBy(() -> s.fork(notACheckpoint, "bad")).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("not a checkpoint");
            assertThat(EngineAccess.store(tl).session(Engines.key("bad"))).isEmpty();
        }
    }
}
