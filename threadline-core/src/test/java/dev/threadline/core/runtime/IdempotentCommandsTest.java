package dev.threadline.core.runtime;

import dev.threadline.core.state.Edit;
import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.CommandConflictException;
import dev.threadline.core.error.SessionExistsException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A caller's command id makes every write idempotent: a repeat returns the first outcome and appends nothing. */
class IdempotentCommandsTest {
    private final StateStore store = new InMemoryStateStore();
    private final Threadline tl = runtime();
    private final List<Threadline> others = new ArrayList<>();

    private Threadline runtime() {
        return Threadline.builder().store(store).skill(TestSkills.echo()).leaseLinger(Duration.ZERO)
                .model(dev.threadline.core.llm.ScriptedModel.of(req -> {
                    var last = req.messages().get(req.messages().size() - 1);
                    if (!last.toolResults().isEmpty()) {
                        return TestSkills.text("echoed " + last.toolResults().get(0).content());
                    }
                    return last.text().startsWith("echo ") ? TestSkills.toolCall("e" + req.messages().size(), "echo",
                            "{\"text\":\"" + last.text().substring(5) + "\"}") : TestSkills.text("ack " + last.text());
                })).build();
    }

    @AfterEach
    void close() {
        others.forEach(Threadline::close);
        tl.close();
    }

    @Test
    void aRetriedSubmitWithTheSameCommandIdMakesOneTurnAndReturnsTheFirstResult() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        TurnResult first = s.with(CommandOptions.builder().commandId("req-1").build()).submit("echo hi");
        List<StoredEvent> after = s.history().journal();

        TurnResult again = s.with(CommandOptions.builder().commandId("req-1").build()).submit("echo hi");

        assertThat(again).isEqualTo(first);
        assertThat(first.reply()).isEqualTo("echoed hi");
        assertThat(first.toolCalls()).isEqualTo(1);
        assertThat(s.history().journal()).isEqualTo(after);
        assertThat(s.state().messages()).filteredOn(m -> m.text().equals("echo hi")).hasSize(1);
    }

    @Test
    void theSameCommandIdFromAnotherRuntimeReturnsTheFirstResult() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        TurnResult first = s.with(CommandOptions.builder().commandId("req-1").build()).submit("hello");
        Threadline other = runtime();
        others.add(other);
        long head = store.head(Engines.key("s1"));

        TurnResult again = other.defaultTenant().open("s1").with(CommandOptions.builder().commandId("req-1").build()).submit("hello");

        assertThat(again).isEqualTo(first);
        assertThat(store.head(Engines.key("s1"))).isEqualTo(head);
    }

    @Test
    void theSameCommandIdForADifferentCommandIsRefusedAndWritesNothing() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.with(CommandOptions.builder().commandId("req-1").build()).submit("hello");
        List<StoredEvent> after = s.history().journal();

        assertThatThrownBy(() -> s.with(CommandOptions.builder().commandId("req-1").build()).submit("something else"))
                .isInstanceOf(CommandConflictException.class)
                .hasMessageContaining("'req-1' was first used for a submit, not a submit with other arguments");
        assertThatThrownBy(() -> s.with(CommandOptions.builder().commandId("req-1").build()).clear())
                .isInstanceOf(CommandConflictException.class).hasMessageContaining("not a clear");
        assertThat(s.history().journal()).isEqualTo(after);
    }

    @Test
    void concurrentRepeatsOfOneCommandRunItOnce() throws Exception {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        Threadline other = runtime();
        others.add(other);
        Session t = other.defaultTenant().open("s1");
        CountDownLatch go = new CountDownLatch(1);
        List<Future<TurnResult>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                Session via = i % 2 == 0 ? s : t;
                results.add(pool.submit(() -> {
                    go.await();
                    return via.with(CommandOptions.builder().commandId("req-9").build()).submit("echo once");
                }));
            }
            go.countDown();
            TurnResult first = results.get(0).get(30, TimeUnit.SECONDS);
            for (Future<TurnResult> f : results) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(first);
            }
        }
        assertThat(s.state().messages()).filteredOn(m -> m.text().equals("echo once")).hasSize(1);
    }

    @Test
    void editClearAndCompactAreIdempotent() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("hello");
        List<dev.threadline.core.state.Edit> setN = List.of(dev.threadline.core.state.Edit.set("n",
                com.fasterxml.jackson.databind.node.IntNode.valueOf(1)));
        Commit first = s.with(CommandOptions.builder().commandId("inc-1").build()).edit("test", "retried", setN);
        Commit again = s.with(CommandOptions.builder().commandId("inc-1").build()).edit("test", "retried", setN);
        assertThat(again.events()).isEqualTo(first.events());
        assertThat(s.history().journal()).filteredOn(e -> e.commandId().equals("inc-1")).hasSize(1);
        assertThat(Counters.value(s.state())).isEqualTo(1);

        s.with(CommandOptions.builder().commandId("clear-1").build()).clear();
        long afterClear = s.state().seq();
        s.with(CommandOptions.builder().commandId("clear-1").build()).clear();
        assertThat(s.state().seq()).isEqualTo(afterClear);

        s.submit("more");
        CompactionResult c1 = s.with(CommandOptions.builder().commandId("compact-1").build()).compact("focus");
        long afterCompact = s.state().seq();
        CompactionResult c2 = s.with(CommandOptions.builder().commandId("compact-1").build()).compact("focus");
        assertThat(c1.compacted()).isTrue();
        assertThat(c2.compacted()).isTrue();
        assertThat(s.state().seq()).isEqualTo(afterCompact);
    }

    @Test
    void forkAndRewindAreIdempotentAndReturnTheFirstBranch() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("one");
        s.submit("two");
        long at = s.history().checkpoints().get(2).seq();

        Session f1 = s.with(CommandOptions.builder().commandId("fork-1").build()).fork(at);
        Session f2 = s.with(CommandOptions.builder().commandId("fork-1").build()).fork(at);
        Session r1 = s.with(CommandOptions.builder().commandId("rw-1").build()).rewind(at);
        Session r2 = s.with(CommandOptions.builder().commandId("rw-1").build()).rewind(at);

        assertThat(f2.id()).isEqualTo(f1.id()).isEqualTo("s1.f1");
        assertThat(r2.id()).isEqualTo(r1.id()).isEqualTo("s1.r1");
        assertThat(tl.defaultTenant().sessions().items()).extracting(x -> x.info().id())
                .containsExactlyInAnyOrder("s1", "s1.f1", "s1.r1");
        assertThatThrownBy(() -> s.with(CommandOptions.builder().commandId("fork-1").build()).fork(at + 1)).isInstanceOf(CommandConflictException.class);
    }

    @Test
    void createIsIdempotentByCommandId() {
        Session a = tl.defaultTenant().with(CommandOptions.builder().commandId("mk-1").build()).create(NewSession.of("s1", SessionConfig.DEFAULT));
        Session b = tl.defaultTenant().with(CommandOptions.builder().commandId("mk-1").build()).create(NewSession.of("s1", SessionConfig.DEFAULT));
        assertThat(b.id()).isEqualTo(a.id());
        assertThat(b.history().journal()).hasSize(1);
        assertThatThrownBy(() -> tl.defaultTenant().with(CommandOptions.builder().commandId("mk-2").build()).create(NewSession.of("s1", SessionConfig.DEFAULT)))
                .isInstanceOf(SessionExistsException.class);
        assertThatThrownBy(() -> tl.defaultTenant().with(CommandOptions.builder().commandId("mk-1").build()).create(NewSession.of("s1", SessionConfig.DEFAULT.withMaxIterations(3)))).isInstanceOf(CommandConflictException.class);
    }
}
