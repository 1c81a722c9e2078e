package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * An interrupt while the turn waits for its model (issue 26, item 1): the call is cancelled at once
 * (its thread interrupted), the turn is recorded as interrupted and the session is idle, whether the
 * model honours the interrupt or not; nothing the abandoned call streams afterwards is heard.
 */
class InterruptAModelCallTest {
    private static final long BOUND = 30;

    /** A model whose first call waits: interruptibly ({@code honours}) or until {@link #release}. */
    private static final class WaitingModel implements ChatModel {
        final boolean honours;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch sawInterrupt = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);

        WaitingModel(boolean honours) {
            this.honours = honours;
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public ChatResponse complete(ChatRequest request) {
            return stream(request, text -> { });
        }

        @Override
        public ChatResponse stream(ChatRequest request, Consumer<String> listener) {
            if (entered.getCount() == 0) {
                return ScriptedModel.text("second answer");
            }
            entered.countDown();
            try {
                while (true) {
                    try {
                        if (release.await(BOUND, TimeUnit.SECONDS)) {
                            listener.accept("late text");
                            return ScriptedModel.text("late answer");
                        }
                        throw new IllegalStateException("never released");
                    } catch (InterruptedException e) {
                        sawInterrupt.countDown();
                        if (honours) {
                            throw new ModelException("cancelled", ModelException.Kind.CANCELLED, false, e);
                        }
                    }
                }
            } finally {
                returned.countDown();
            }
        }
    }

    private static Threadline runtime(ChatModel model) {
        return Threadline.builder().store(new InMemoryStateStore()).model(model).build();
    }

    private static void assertInterruptedAndIdle(Session s, TurnResult r) {
        assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.INTERRUPTED);
        assertThat(r.reason()).isEqualTo("interrupted by the user");
        assertThat(s.state().status()).isEqualTo(SessionStatus.IDLE);
        List<StoredEvent> journal = s.history().journal();
        assertThat(journal.get(journal.size() - 1).event()).isEqualTo(new Event.TurnInterrupted("interrupted by the user"));
    }

    @Test
    void anInterruptCancelsTheModelCallAndTheTurnEndsInterrupted() throws Exception {
        WaitingModel model = new WaitingModel(true);
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            CompletableFuture<TurnResult> turn = s.async().submit("hello");
            assertThat(model.entered.await(BOUND, TimeUnit.SECONDS)).isTrue();
            assertThat(s.state().status()).isEqualTo(SessionStatus.RUNNING);

            assertThat(s.interrupt()).isTrue();

            assertThat(model.sawInterrupt.await(BOUND, TimeUnit.SECONDS)).as("the model call's thread is interrupted").isTrue();
            assertInterruptedAndIdle(s, turn.get(BOUND, TimeUnit.SECONDS));
            assertThat(s.submit("again").reply()).as("the next turn runs as usual").isEqualTo("second answer");
        }
    }

    @Test
    void aModelThatIgnoresTheInterruptIsAbandonedAndWhatItStreamsLaterIsNotHeard() throws Exception {
        WaitingModel model = new WaitingModel(false);
        List<String> heard = new CopyOnWriteArrayList<>();
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            CommandOptions listening = CommandOptions.builder().listener(d -> heard.add(d.text())).build();
            CompletableFuture<TurnResult> turn = s.with(listening).async().submit("hello");
            assertThat(model.entered.await(BOUND, TimeUnit.SECONDS)).isTrue();

            assertThat(s.interrupt()).isTrue();

            assertInterruptedAndIdle(s, turn.get(BOUND, TimeUnit.SECONDS)); // the model still waits
            assertThat(model.returned.getCount()).as("the model has not returned").isEqualTo(1);
            model.release.countDown();
            assertThat(model.returned.await(BOUND, TimeUnit.SECONDS)).isTrue();
            assertThat(heard).as("nothing after the interrupt").isEmpty();
            assertThat(s.state().messages()).noneMatch(m -> m.text().contains("late"));
        }
    }

    @Test
    void aTurnRunOnTheCallersThreadLeavesThatThreadUninterrupted() throws Exception {
        WaitingModel model = new WaitingModel(true);
        try (Threadline tl = runtime(model)) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            CompletableFuture<Boolean> interrupter = CompletableFuture.supplyAsync(() -> {
                try {
                    return model.entered.await(BOUND, TimeUnit.SECONDS) && s.interrupt();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            TurnResult r = s.submit("hello"); // runs here, on the test's thread
            assertThat(interrupter.get(BOUND, TimeUnit.SECONDS)).isTrue();
            assertInterruptedAndIdle(s, r);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }
}
