package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Tail reads, gaps, refused branches and models chosen per session. */
class JournalReadsTest {

    @Test
    void anObserverInAnotherRuntimeFollowsTheSessionLive() throws Exception {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline writer = Threadline.builder().store(store).model(ScriptedModel.demo()).build();
             Threadline observer = Threadline.builder().store(store).build()) {
            Session s = writer.defaultTenant().create("s1", SessionConfig.DEFAULT);
            Session watched = observer.defaultTenant().open("s1");
            long seen = watched.state().seq();
            assertThat(watched.history().awaitEvents(seen, Duration.ZERO)).isEmpty();

            CompletableFuture<List<StoredEvent>> next = CompletableFuture.supplyAsync(() -> watched.history().awaitEvents(seen, Duration.ofSeconds(30)));
            s.submit("hello");

            List<StoredEvent> events = next.get(30, TimeUnit.SECONDS);
            assertThat(events).isNotEmpty();
            assertThat(events.get(0).seq()).isEqualTo(seen + 1);
            List<StoredEvent> rest = watched.history().events(events.get(events.size() - 1).seq(), 1000);
            assertThat(concat(events, rest)).isEqualTo(s.history().journal().subList((int) seen, s.history().journal().size()));
            assertThat(watched.history().events(0, 2)).extracting(StoredEvent::seq).containsExactly(1L, 2L);
            assertThatThrownBy(() -> watched.history().events(-1, 10)).isInstanceOf(InvalidInputException.class).hasMessageContaining("after");
        }
    }

    private static List<StoredEvent> concat(List<StoredEvent> a, List<StoredEvent> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    @Test
    void aJournalWithAMissingRowIsOneClearErrorNamingSessionAndSeq() {
        InMemoryStateStore inner = new InMemoryStateStore();
        ForwardingStore holed = new ForwardingStore(inner) {
            @Override
            public List<StoredEvent> readOwn(SessionKey key, long fromSeq, long toSeq) {
                return super.readOwn(key, fromSeq, toSeq).stream().filter(e -> e.seq() != 3).toList();
            }
        };
        try (Threadline tl = Threadline.builder().store(holed).model(ScriptedModel.demo()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("hello");
            Engines.evict(tl, "s1");

            for (Runnable read : List.<Runnable>of(s.history()::journal, s::state, s.history()::checkpoints, () -> s.history().stateAt(4))) {
                assertThatThrownBy(read::run).isInstanceOf(StorageException.class)
                        .hasMessage("session 's1' seq 3: journal row is missing (the next row is seq 4)");
            }
        }
    }

    @Test
    void aRefusedForkLeavesNoBranchBehind() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline withEcho = Threadline.builder().store(store).model(ScriptedModel.demo()).skill(TestSkills.echo()).build();
             Threadline withoutEcho = Threadline.builder().store(store).build()) { // a runtime that lacks the session's skill
            withEcho.defaultTenant().create("s1", SessionConfig.DEFAULT.withSkills(List.of("echo"))).submit("hello");
            Session s = withoutEcho.defaultTenant().open("s1");
            long at = s.history().checkpoints().get(1).seq();

            assertThatThrownBy(() -> s.fork(at, "copy")).isInstanceOf(InvalidInputException.class).hasMessageContaining("echo");
            assertThatThrownBy(() -> s.rewind(at)).isInstanceOf(InvalidInputException.class);

            assertThat(withoutEcho.defaultTenant().sessions().items()).extracting(x -> x.info().id()).containsExactly("s1");
            assertThat(withoutEcho.defaultTenant().find("copy")).isEmpty();
        }
    }

    @Test
    void twoSessionsOfOneRuntimeRunOnTheModelsTheirConfigsName() {
        ModelResolver models = ModelResolver.of(List.of(named("alpha"), named("beta")));
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).models(models).build()) {
            Session a = tl.defaultTenant().create("a", SessionConfig.DEFAULT.withModel("alpha"));
            Session b = tl.defaultTenant().create("b", SessionConfig.DEFAULT.withModel("beta"));

            assertThat(a.submit("hi").reply()).isEqualTo("alpha says hi");
            assertThat(b.submit("hi").reply()).isEqualTo("beta says hi");
            assertThatThrownBy(() -> tl.defaultTenant().create("c", SessionConfig.DEFAULT.withModel("gamma")))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("no model is configured for 'gamma'");
            assertThat(tl.defaultTenant().find("c")).isEmpty();
        }
    }

    private static dev.threadline.core.llm.ChatModel named(String name) {
        ScriptedModel inner = ScriptedModel.of(req -> TestSkills.text(name + " says " + req.messages().get(req.messages().size() - 1).text()));
        return new dev.threadline.core.llm.ChatModel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public dev.threadline.core.llm.ChatResponse complete(dev.threadline.core.llm.ChatRequest request) {
                return inner.complete(request);
            }
        };
    }

    @Test
    void aRecordedStepMustLeaveTheSessionBetweenTurnsOrNothingIsWritten() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            long head = s.state().seq();

            assertThatThrownBy(() -> s.recordStep(st -> List.of(new dev.threadline.core.event.Event.AssistantMessageReceived(
                    dev.threadline.core.model.Message.assistantText("made up")))))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("between turns");
            assertThatThrownBy(() -> s.recordStep(st -> List.of(new dev.threadline.core.event.Event.UserMessageReceived(
                    dev.threadline.core.model.Message.user("a turn that never ends")))))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("would leave it running");
            assertThat(s.state().seq()).isEqualTo(head);
            assertThat(s.state().isIdle()).isTrue();

            s.recordStep(st -> List.of(new dev.threadline.core.event.Event.UserMessageReceived(dev.threadline.core.model.Message.user("hi")),
                    new dev.threadline.core.event.Event.AssistantMessageReceived(dev.threadline.core.model.Message.assistantText("hello")),
                    new dev.threadline.core.event.Event.TurnCompleted("end_turn")));
            assertThat(s.state().messages()).extracting(m -> m.text()).containsExactly("hi", "hello");
        }
    }
}
