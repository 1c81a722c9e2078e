package dev.threadline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionCopy} between two in-memory stores: sessions with forks, variables and command records go
 * over whole and compare equal; a rerun resumes; a destination that differs is refused by name. The copy
 * between the real backends, and one killed half-way, are tested in threadline-cli (SessionsCopyTest).
 */
class SessionCopyTest {
    private final StateStore source = new InMemoryStateStore();
    private final StateStore dest = new InMemoryStateStore();
    private final List<Threadline> runtimes = new ArrayList<>();
    private final Threadline src = runtime(source);

    private Threadline runtime(StateStore store) {
        Threadline tl = Threadline.builder().store(store).leaseLinger(Duration.ZERO)
                .model(ScriptedModel.of(req -> ScriptedModel.text("ack " + req.messages().getLast().text()))).build();
        runtimes.add(tl);
        return tl;
    }

    @AfterEach
    void close() {
        runtimes.forEach(Threadline::close);
    }

    /** Sessions a (user u1, a command id, user and app variables), its fork a-f and that fork's fork a-f-f, and b (user u2). */
    private void fixture(Tenant t) {
        Session a = t.create(new dev.threadline.core.runtime.NewSession("a", "u1", SessionConfig.DEFAULT, null, null));
        a.with(CommandOptions.id("req-1")).submit("hello");
        long afterHello = a.history().journal().getLast().seq();
        a.edit("test", "vars", List.of(new Edit.SetVariable(VariableScope.USER, "colour", TextNode.valueOf("blue")),
                new Edit.SetVariable(VariableScope.APP, "motd", TextNode.valueOf("hi")), Edit.set("s", TextNode.valueOf("x"))));
        a.submit("second");
        Session f = a.with(CommandOptions.id("fork-1")).fork(afterHello, "a-f");
        f.submit("on the fork");
        f.fork(f.history().journal().getLast().seq(), "a-f-f").submit("deeper");
        Session b = t.create(new dev.threadline.core.runtime.NewSession("b", "u2", SessionConfig.DEFAULT, null, null));
        b.submit("other user");
    }

    private void assertSame(String tenant, List<String> ids) {
        for (String id : ids) {
            SessionKey k = new SessionKey(tenant, id);
            assertThat(dest.session(k)).as(id).isEqualTo(source.session(k));
            assertThat(dest.head(k)).as(id).isEqualTo(source.head(k));
            assertThat(dest.readOwn(k, 1, dest.head(k))).as(id).isEqualTo(source.readOwn(k, 1, source.head(k)));
        }
    }

    @Test
    void sessionsGoOverWithTheirBranchesVariablesAndCommandRecordsAndCompareEqual() {
        fixture(src.tenant("acme"));
        List<String> order = new ArrayList<>();

        CopyReport r = SessionCopy.between(source, dest).tenant("acme").onCopied(c -> order.add(c.sessionId())).run();

        assertSame("acme", List.of("a", "a-f", "a-f-f", "b"));
        assertThat(order).containsExactly("a", "a-f", "a-f-f", "b");
        assertThat(r.sessions()).isEqualTo(4);
        assertThat(r.created()).isEqualTo(4);
        assertThat(r.eventsPresent()).isZero();
        assertThat(r.events()).isEqualTo(r.eventsCompared()).isPositive();
        assertThat(r.commands()).as("req-1 on a, fork-1 on a").isEqualTo(2);
        assertThat(dest.command(new SessionKey("acme", "a"), "req-1")).isEqualTo(source.command(new SessionKey("acme", "a"), "req-1"));
        assertThat(dest.command(new SessionKey("acme", "a"), "fork-1")).isPresent().isEqualTo(source.command(new SessionKey("acme", "a"), "fork-1"));
        assertThat(dest.variables(VariableScope.USER, ScopedWrite.userKey("acme", "u1"))).containsEntry("colour", TextNode.valueOf("blue"));
        assertThat(dest.variables(VariableScope.APP, ScopedWrite.appKey("acme"))).containsEntry("motd", TextNode.valueOf("hi"));

        Threadline there = runtime(dest);
        Session f = there.tenant("acme").open("a-f-f");
        assertThat(f.state()).isEqualTo(src.tenant("acme").open("a-f-f").state());
        assertThat(f.submit("goes on").reply()).isEqualTo("ack goes on");
        assertThat(there.tenant("acme").open("a").with(CommandOptions.id("req-1")).submit("hello").reply())
                .as("a retry of a command recorded in the source is recognised in the destination").isEqualTo("ack hello");
    }

    @Test
    void aRerunLeavesWholeSessionsAloneAndContinuesThoseTheSourceMovedOn() {
        fixture(src.tenant("acme"));
        CopyReport first = SessionCopy.between(source, dest).tenant("acme").run();
        SessionKey fork = new SessionKey("acme", "a-f");
        long before = source.head(fork);
        src.tenant("acme").open("a-f").submit("later");

        CopyReport again = SessionCopy.between(source, dest).tenant("acme").run();

        assertSame("acme", List.of("a", "a-f", "a-f-f", "b"));
        assertThat(again.created()).isZero();
        assertThat(again.resumed()).isEqualTo(1);
        assertThat(again.unchanged()).isEqualTo(3);
        assertThat(again.eventsPresent()).isEqualTo(first.events());
        assertThat(again.events()).as("only the new turn's").isEqualTo(source.head(fork) - before);
    }

    @Test
    void aDestinationSessionThatDiffersIsRefusedNamingItAndTheSeq() {
        fixture(src.tenant("acme"));
        SessionCopy.between(source, dest).tenant("acme").run();
        long head = source.head(new SessionKey("acme", "b"));
        runtime(dest).tenant("acme").open("b").submit("written in the destination");
        src.tenant("acme").open("b").submit("written in the source");

        assertThatThrownBy(() -> SessionCopy.between(source, dest).tenant("acme").run()).isInstanceOf(ThreadlineException.class)
                .hasMessage("session 'b' of tenant acme differs between the source and the destination at seq " + (head + 1)
                        + "; it was not copied further (remove it from the destination, or copy to another store)");
    }

    @Test
    void oneSessionGoesWithTheSessionsItBranchedFromAndItsBranches() {
        fixture(src.tenant("acme"));

        CopyReport r = SessionCopy.between(source, dest).tenant("acme").session("a-f").run();

        assertThat(r.sessions()).isEqualTo(3);
        assertSame("acme", List.of("a", "a-f", "a-f-f"));
        assertThat(dest.session(new SessionKey("acme", "b"))).isEmpty();
    }

    @Test
    void anUnknownSessionIsRefusedAndAnEmptyTenantCopiesNothing() {
        fixture(src.tenant("acme"));

        assertThatThrownBy(() -> SessionCopy.between(source, dest).tenant("acme").session("nope").run())
                .isInstanceOf(SessionNotFoundException.class);
        assertThat(SessionCopy.between(source, dest).tenant("nobody").run().sessions()).isZero();
        assertThat(dest.list(dev.threadline.core.store.SessionQuery.tenant("acme")).items()).isEmpty();
    }

    @Test
    void aSharedVariableThatSessionsWroteInTurnEndsAsTheSourceHasIt() {
        Tenant t = src.tenant("acme");
        Session a = t.create(new dev.threadline.core.runtime.NewSession("a", "u", SessionConfig.DEFAULT, null, null));
        Session b = t.create(new dev.threadline.core.runtime.NewSession("b", "u", SessionConfig.DEFAULT, null, null));
        for (var w : List.of(List.of(a, "red"), List.of(b, "blue"), List.of(a, "green"), List.of(b, "removed"))) {
            Session s = (Session) w.get(0);
            String colour = (String) w.get(1);
            s.edit("test", "in turn", List.of(colour.equals("removed") ? new Edit.RemoveVariable(VariableScope.APP, "shape")
                    : new Edit.SetVariable(VariableScope.APP, "shape", TextNode.valueOf(colour)),
                    new Edit.SetVariable(VariableScope.USER, "colour", TextNode.valueOf(colour.equals("removed") ? "grey" : colour))));
        }
        a.edit("test", "last", List.of(new Edit.SetVariable(VariableScope.USER, "colour", TextNode.valueOf("green"))));

        SessionCopy.between(source, dest).tenant("acme").run();

        assertThat(dest.variables(VariableScope.USER, ScopedWrite.userKey("acme", "u")))
                .isEqualTo(source.variables(VariableScope.USER, ScopedWrite.userKey("acme", "u")))
                .containsEntry("colour", TextNode.valueOf("green"));
        assertThat(dest.variables(VariableScope.APP, ScopedWrite.appKey("acme"))).as("b removed it last, after a set it")
                .isEqualTo(source.variables(VariableScope.APP, ScopedWrite.appKey("acme"))).doesNotContainKey("shape");
    }
}
