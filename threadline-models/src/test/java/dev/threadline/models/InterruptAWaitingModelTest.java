package dev.threadline.models;

import dev.threadline.harness.servers.SilentServer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.models.http.HttpSettings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code Session.interrupt()} while the turn waits for a real provider over HTTP that accepts and never
 * answers (issue 26, item 1): the client closes the connection, the turn is recorded as interrupted and
 * the session is idle at once, for a whole reply and a streamed one (also when the stream's headers came and
 * nothing after them), OpenAI's format and Anthropic's. The HTTP timeout is the default ten minutes, so
 * only the interrupt can end these calls; the bounds below are generous waits for conditions, never
 * sleeps (the interrupt ends the turn in milliseconds).
 */
class InterruptAWaitingModelTest {
    private static final long BOUND = 30;

    private static void interruptWhileWaiting(String spec, String path, boolean streamed, boolean startStream) throws Exception {
        try (SilentServer server = new SilentServer(startStream)) {
            ChatModel model = Models.fromSpec(spec, server.url() + path, Map.of("ANTHROPIC_API_KEY", "test", "OPENAI_API_KEY", "test"),
                    0, HttpSettings.defaults());
            try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).build()) {
                Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT.withModel(model.name()));
                CommandOptions options = streamed ? CommandOptions.builder().listener(d -> { }).build() : CommandOptions.NONE;
                CompletableFuture<TurnResult> turn = s.with(options).async().submit("hello");
                assertThat(server.requested.await(BOUND, TimeUnit.SECONDS)).as("the model call reached the server").isTrue();
                assertThat(s.state().status()).isEqualTo(SessionStatus.RUNNING);

                long asked = System.nanoTime();
                assertThat(s.interrupt()).isTrue();

                TurnResult r = turn.get(BOUND, TimeUnit.SECONDS);
                long tookMillis = (System.nanoTime() - asked) / 1_000_000;
                assertThat(tookMillis).as("the turn ends at once (milliseconds; 5 s is a generous bound for a loaded machine)")
                        .isLessThan(5_000);
                assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.INTERRUPTED);
                assertThat(s.state().status()).isEqualTo(SessionStatus.IDLE);
                List<StoredEvent> journal = s.history().journal();
                assertThat(journal.get(journal.size() - 1).event()).isEqualTo(new Event.TurnInterrupted("interrupted by the user"));
                assertThat(server.awaitClosedByClient(BOUND)).as("the client closed the connection").isTrue();
            }
        }
    }

    @Test
    void anOpenAiCallThatGetsNoAnswerIsCancelled() throws Exception {
        interruptWhileWaiting("openai:test-model", "/v1", false, false);
    }

    @Test
    void aStreamedOpenAiCallThatGetsNoAnswerIsCancelled() throws Exception {
        interruptWhileWaiting("openai:test-model", "/v1", true, false);
    }

    @Test
    void aStreamedAnthropicCallWhoseEventsNeverComeIsCancelled() throws Exception {
        interruptWhileWaiting("anthropic:claude-test", "", true, true);
    }
}
