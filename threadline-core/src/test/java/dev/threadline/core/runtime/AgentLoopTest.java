package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgentLoopTest {

    private Threadline runtime(ChatModel model, CountDownLatch hangStarted) {
        return Threadline.builder().store(new InMemoryStateStore()).model(model)
                .skills(List.of(TestSkills.echo(), TestSkills.boom(), TestSkills.hang(hangStarted))).build();
    }

    @Test
    void runsRequestedSkillsAndEndsAtEndTurn() {
        ChatModel model = ScriptedModel.replies(toolCall("t1", "echo", "{\"text\":\"hi\"}"), text("done"));
        try (Threadline tl = runtime(model, new CountDownLatch(1))) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            TurnResult r = s.submit("say hi");
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(r.reply()).isEqualTo("done");
            assertThat(r.modelCalls()).isEqualTo(2);
            State st = s.state();
            assertThat(st.isIdle()).isTrue();
            assertThat(st.messages()).extracting(Message::role)
                    .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);
            assertThat(st.messages().get(2).toolResults()).containsExactly(new ContentBlock.ToolResult("t1", "hi", false));
            assertThat(st.usage().inputTokens()).isEqualTo(20);
        }
    }

    @Test
    void invalidArgumentsUnknownToolsAndExceptionsBecomeErrorResultsTheModelSees() {
        ChatModel model = ScriptedModel.replies(
                TestSkills.toolCalls(
                        new ContentBlock.ToolUse("a", "echo", TestSkills.json("{\"txt\":1}")),
                        new ContentBlock.ToolUse("b", "nosuch", TestSkills.json("{}")),
                        new ContentBlock.ToolUse("c", "boom", TestSkills.json("{}"))),
                text("sorry"));
        try (Threadline tl = runtime(model, new CountDownLatch(1))) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            TurnResult r = s.submit("go");
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            List<ContentBlock.ToolResult> results = s.state().messages().get(2).toolResults();
            assertThat(results).extracting(ContentBlock.ToolResult::toolUseId).containsExactly("a", "b", "c");
            assertThat(results).allMatch(ContentBlock.ToolResult::isError);
            assertThat(results.get(0).content()).contains("invalid arguments for echo").contains("text");
            assertThat(results.get(1).content()).contains("unknown tool 'nosuch'");
            assertThat(results.get(2).content()).contains("boom failed: the disk is on fire");
            assertThat(s.state().isIdle()).isTrue();
        }
    }

    /**
     * The 50 ms deadline is kept by the runtime's scheduler on its clock: the test moves a test clock, and
     * the skill, which only an interrupt ends, is cancelled once its 50 ms have passed by that clock, not
     * before (nothing waits for real time to pass).
     */
    @Test
    void aSkillThatOverrunsItsDeadlineIsRecordedAsTimedOut() throws Exception {
        ChatModel model = ScriptedModel.replies(toolCall("t1", "hang", "{}"), text("ok"));
        CountDownLatch started = new CountDownLatch(1);
        TestClock clock = new TestClock();
        ManualScheduler ticks = new ManualScheduler(clock);
        Threadline tl = Threadline.builder().store(new InMemoryStateStore(clock)).model(model).clock(clock).scheduler(ticks)
                .skills(List.of(TestSkills.echo(), TestSkills.boom(), TestSkills.hang(started))).build();
        try {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withToolTimeoutMillis(50));
            CompletableFuture<TurnResult> turn = s.async().submit("wait");
            assertThat(started.await(ManualScheduler.SAFETY.toSeconds(), TimeUnit.SECONDS)).as("the skill started").isTrue();
            ticks.awaitDueWithin(Duration.ofMillis(50)); // the call's timeout is armed

            ticks.advance(Duration.ofMillis(49));
            assertThat(turn).as("49 ms in, the skill still runs").isNotDone();
            assertThat(s.history().journal()).extracting(StoredEvent::event).noneMatch(e -> e instanceof Event.ToolCallEnded);
            ticks.advance(Duration.ofMillis(1));

            assertThat(turn.get(ManualScheduler.SAFETY.toSeconds(), TimeUnit.SECONDS).outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(s.history().journal()).extracting(StoredEvent::event).hasAtLeastOneElementOfType(Event.ToolCallTimedOut.class);
            ContentBlock.ToolResult result = s.state().messages().get(2).toolResults().get(0);
            assertThat(result.isError()).isTrue();
            assertThat(result.content()).contains("did not finish within 50 ms");
        } finally {
            ticks.finish(); // before the runtime closes: a skill still hanging is cancelled by its timeout
            tl.close();
            ticks.shutdownNow();
        }
    }

    @Test
    void interruptCancelsRunningSkillsAndLeavesAValidTranscript() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        ChatModel model = ScriptedModel.replies(toolCall("t1", "hang", "{}"), text("never reached"));
        try (Threadline tl = runtime(model, started)) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            CompletableFuture<TurnResult> f = s.async().submit("wait forever");
            started.await();
            assertThat(s.interrupt()).isTrue();
            TurnResult r = f.get();
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.INTERRUPTED);
            State st = s.state();
            assertThat(st.isIdle()).isTrue();
            assertThat(st.messages().get(2).toolResults().get(0).content()).contains("cancelled");
            assertThat(TranscriptValidator.violations(st.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
        }
    }

    @Test
    void stopsAtTheIterationLimit() {
        ChatModel model = ScriptedModel.of(req -> toolCall("t" + req.messages().size(), "echo", "{\"text\":\"again\"}"));
        try (Threadline tl = runtime(model, new CountDownLatch(1))) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withMaxIterations(3));
            TurnResult r = s.submit("loop");
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.MAX_ITERATIONS);
            assertThat(r.modelCalls()).isEqualTo(3);
            assertThat(s.state().isIdle()).isTrue();
            assertThat(TranscriptValidator.isValid(s.state().messages(), TranscriptValidator.Mode.MODEL_VIEW)).isTrue();
        }
    }

    @Test
    void aModelErrorIsRecordedAsAnInterruptedTurnAndRethrown() {
        ChatModel model = ScriptedModel.of(req -> {
            throw new ModelException("overloaded", true);
        });
        try (Threadline tl = runtime(model, new CountDownLatch(1))) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            assertThatThrownBy(() -> s.submit("hi")).isInstanceOf(ModelException.class);
            assertThat(s.state().isIdle()).isTrue();
            assertThat(s.history().journal()).extracting(StoredEvent::event).last().isInstanceOf(Event.TurnInterrupted.class);
        }
    }
}
