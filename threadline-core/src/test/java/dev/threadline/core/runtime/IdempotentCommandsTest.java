package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.CommandConflictException;
import dev.threadline.core.SessionExistsException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.store.InMemoryStateStore;
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
        TurnResult first = s.submit("echo hi", CommandOptions.id("req-1"));
        List<StoredEvent> after = s.journal();

        TurnResult again = s.submit("echo hi", CommandOptions.id("req-1"));

        assertThat(again).isEqualTo(first);
        assertThat(first.reply()).isEqualTo("echoed hi");
        assertThat(first.toolCalls()).isEqualTo(1);
        assertThat(s.journal()).isEqualTo(after);
        assertThat(s.state().messages()).filteredOn(m -> m.text().equals("echo hi")).hasSize(1);
    }

    @Test
    void theSameCommandIdFromAnotherRuntimeReturnsTheFirstResult() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        TurnResult first = s.submit("hello", CommandOptions.id("req-1"));
        Threadline other = runtime();
        others.add(other);
        long head = store.head(Engines.key("s1"));

        TurnResult again = other.defaultTenant().open("s1").submit("hello", CommandOptions.id("req-1"));

        assertThat(again).isEqualTo(first);
        assertThat(store.head(Engines.key("s1"))).isEqualTo(head);
    }

    @Test
    void theSameCommandIdForADifferentCommandIsRefusedAndWritesNothing() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("hello", CommandOptions.id("req-1"));
        List<StoredEvent> after = s.journal();

        assertThatThrownBy(() -> s.submit("something else", CommandOptions.id("req-1")))
                .isInstanceOf(CommandConflictException.class)
                .hasMessageContaining("'req-1' was first used for a submit, not a submit with other arguments");
        assertThatThrownBy(() -> s.clear(CommandOptions.id("req-1")))
                .isInstanceOf(CommandConflictException.class).hasMessageContaining("not a clear");
        assertThat(s.journal()).isEqualTo(after);
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
                    return via.submit("echo once", CommandOptions.id("req-9"));
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
        Commit first = s.edit("test", "retried", setN, CommandOptions.id("inc-1"));
        Commit again = s.edit("test", "retried", setN, CommandOptions.id("inc-1"));
        assertThat(again.events()).isEqualTo(first.events());
        assertThat(s.journal()).filteredOn(e -> e.commandId().equals("inc-1")).hasSize(1);
        assertThat(Counters.value(s.state())).isEqualTo(1);

        s.clear(CommandOptions.id("clear-1"));
        long afterClear = s.state().seq();
        s.clear(CommandOptions.id("clear-1"));
        assertThat(s.state().seq()).isEqualTo(afterClear);

        s.submit("more");
        CompactionResult c1 = s.compact("focus", CommandOptions.id("compact-1"));
        long afterCompact = s.state().seq();
        CompactionResult c2 = s.compact("focus", CommandOptions.id("compact-1"));
        assertThat(c1.compacted()).isTrue();
        assertThat(c2.compacted()).isTrue();
        assertThat(s.state().seq()).isEqualTo(afterCompact);
    }

    @Test
    void forkAndRewindAreIdempotentAndReturnTheFirstBranch() {
        Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
        s.submit("one");
        s.submit("two");
        long at = s.checkpoints().get(2).seq();

        Session f1 = s.fork(at, null, CommandOptions.id("fork-1"));
        Session f2 = s.fork(at, null, CommandOptions.id("fork-1"));
        Session r1 = s.rewind(at, CommandOptions.id("rw-1"));
        Session r2 = s.rewind(at, CommandOptions.id("rw-1"));

        assertThat(f2.id()).isEqualTo(f1.id()).isEqualTo("s1.f1");
        assertThat(r2.id()).isEqualTo(r1.id()).isEqualTo("s1.r1");
        assertThat(tl.defaultTenant().sessions().items()).extracting(x -> x.info().id())
                .containsExactlyInAnyOrder("s1", "s1.f1", "s1.r1");
        assertThatThrownBy(() -> s.fork(at + 1, null, CommandOptions.id("fork-1"))).isInstanceOf(CommandConflictException.class);
    }

    @Test
    void createIsIdempotentByCommandId() {
        Session a = tl.defaultTenant().create(NewSession.of("s1", SessionConfig.DEFAULT), CommandOptions.id("mk-1"));
        Session b = tl.defaultTenant().create(NewSession.of("s1", SessionConfig.DEFAULT), CommandOptions.id("mk-1"));
        assertThat(b.id()).isEqualTo(a.id());
        assertThat(b.journal()).hasSize(1);
        assertThatThrownBy(() -> tl.defaultTenant().create(NewSession.of("s1", SessionConfig.DEFAULT), CommandOptions.id("mk-2")))
                .isInstanceOf(SessionExistsException.class);
        assertThatThrownBy(() -> tl.defaultTenant().create(NewSession.of("s1", SessionConfig.DEFAULT.withMaxIterations(3)),
                CommandOptions.id("mk-1"))).isInstanceOf(CommandConflictException.class);
    }
}
