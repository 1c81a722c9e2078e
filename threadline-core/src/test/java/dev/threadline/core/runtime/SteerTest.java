package dev.threadline.core.runtime;

import static dev.threadline.core.runtime.TestSkills.text;
import static dev.threadline.core.runtime.TestSkills.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.TranscriptValidator;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Double texting {@code steer} (issue 29 item 1): a message sent while a tool of the running turn works is
 * journalled at once, joins the transcript after the tool's result, and reaches the model's next call in the same
 * turn; both callers get that turn's result. A message that meets a turn ending before its next model call starts
 * the next turn.
 */
class SteerTest {
    private static CommandOptions steer() {
        return CommandOptions.builder().doubleTexting(DoubleTexting.STEER).build();
    }

    @Test
    void aMessageSentWhileAToolRunsReachesTheNextModelCallOfTheSameTurn() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedModel model = ScriptedModel.replies(toolCall("t1", "gate", "{}"), text("done, and noted: in French")).recording();
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model)
                .skills(List.of(TestSkills.gate(entered, release))).build()) {
            Session s = tl.defaultTenant().create("st", SessionConfig.DEFAULT);
            CompletableFuture<TurnResult> first = s.async().submit("run the gate");
            assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<TurnResult> steered = s.with(steer()).async().submit("answer in French");
            // journalled at once, before submit returns: in the journal while the tool still works
            assertThat(s.history().journal()).anyMatch(e -> e.event() instanceof Event.MessageSteered);
            assertThat(steered).isNotDone();
            assertThat(s.state().steered()).extracting(Message::text).containsExactly("answer in French");
            release.countDown();
            TurnResult r = first.get(30, TimeUnit.SECONDS);
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(r.modelCalls()).as("one turn, two model calls").isEqualTo(2);
            assertThat(steered.get(30, TimeUnit.SECONDS).reply()).isEqualTo("done, and noted: in French");

            List<ChatRequest> requests = model.requests();
            assertThat(requests).hasSize(2);
            List<Message> second = requests.get(1).messages();
            assertThat(second.get(second.size() - 1).text()).isEqualTo("answer in French");
            assertThat(second.get(second.size() - 2).role()).as("after the tool's result").isEqualTo(Role.TOOL);
            assertThat(s.state().steered()).isEmpty();
            assertThat(TranscriptValidator.isValid(s.state().messages(), TranscriptValidator.Mode.CHECKPOINT)).isTrue();
            List<StoredEvent> journal = s.history().journal();
            long steeredAt = journal.stream().filter(e -> e.event() instanceof Event.MessageSteered).findFirst().orElseThrow().seq();
            long resultAt = journal.stream().filter(e -> e.event() instanceof Event.ToolCallCompleted).findFirst().orElseThrow().seq();
            assertThat(steeredAt).as("journalled before the tool's result").isLessThan(resultAt);
            assertThat(journal.stream().filter(e -> e.event() instanceof Event.UserMessageReceived)).hasSize(1);
            assertThat(s.history().stateAt(s.state().seq()).messages()).as("a reload folds the same transcript")
                    .isEqualTo(s.state().messages());
        }
    }

    @Test
    void aMessageThatMeetsATurnEndingBeforeItsNextModelCallStartsTheNextTurn() throws Exception {
        CountDownLatch calling = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.threadline.core.llm.ChatModel model = new dev.threadline.core.llm.ChatModel() {
            @Override
            public String name() {
                return "slow";
            }

            @Override
            public dev.threadline.core.llm.ChatResponse complete(ChatRequest request) {
                if (calls.incrementAndGet() == 1) {
                    calling.countDown();
                    try {
                        assertThat(answer.await(30, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return text("first answer");
                }
                return text("to " + request.messages().get(request.messages().size() - 1).text());
            }
        };
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).build()) {
            Session s = tl.defaultTenant().create("st3", SessionConfig.DEFAULT);
            CompletableFuture<TurnResult> first = s.async().submit("first");
            assertThat(calling.await(30, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<TurnResult> steered = s.with(steer()).async().submit("the steered one");
            answer.countDown(); // the reply ends the turn: no model call follows it to take the message
            assertThat(first.get(30, TimeUnit.SECONDS).reply()).isEqualTo("first answer");
            TurnResult next = steered.get(30, TimeUnit.SECONDS);
            assertThat(next.reply()).isEqualTo("to the steered one");
            assertThat(s.state().messages()).extracting(Message::text)
                    .containsExactly("first", "first answer", "the steered one", "to the steered one");
            assertThat(s.state().steered()).isEmpty();
            assertThat(s.state().isIdle()).isTrue();
        }
    }

    @Test
    void aMessageThatMeetsNoRunningTurnIsAnOrdinaryTurn() {
        ScriptedModel model = ScriptedModel.replies(text("one"), text("two")).recording();
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).build()) {
            Session s = tl.defaultTenant().create("st2", SessionConfig.DEFAULT);
            assertThat(s.submit("first").reply()).isEqualTo("one");
            assertThat(s.with(steer()).submit("second").reply()).isEqualTo("two");
            assertThat(s.history().journal()).noneMatch(e -> e.event() instanceof Event.MessageSteered);
        }
    }
}
