package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.export.ExportLines;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.NewSession;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.Edit;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.Page;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sessions to copy between stores, written through the Java API with a scripted model: per session two
 * turns (the first under a caller's command id), an edit of user, app and session variables; every third
 * session a fork with a turn of its own, every ninth a fork of that fork. Sessions are written one after
 * another, so the shared variables' last writer is also the last session in id order. And a check that
 * two stores hold the same sessions, journals, command records and shared variables.
 */
final class CopyFixture {
    static final int USERS = 5;

    private CopyFixture() {}

    /** Writes {@code n} sessions (plus their forks) of {@code tenant} to the store at {@code url}. */
    static void write(String url, String tenant, int n) {
        try (Threadline tl = Threadline.builder().store(url).leaseLinger(Duration.ZERO)
                .model(ScriptedModel.of(req -> ScriptedModel.text("ack " + req.messages().getLast().text()))).build()) {
            Tenant t = tl.tenant(tenant);
            for (int i = 0; i < n; i++) {
                String id = String.format("s%04d", i);
                Session s = t.create(new NewSession(id, "u" + (i % USERS), SessionConfig.DEFAULT, java.util.Map.of("n", "" + i), null));
                s.with(CommandOptions.id("req-" + i)).submit("hello " + i);
                long afterFirst = s.history().journal().getLast().seq();
                s.edit("fixture", "vars", List.of(new Edit.SetVariable(VariableScope.USER, "last", IntNode.valueOf(i)),
                        new Edit.SetVariable(VariableScope.APP, "latest", TextNode.valueOf(id)), Edit.set("mine", IntNode.valueOf(i))));
                s.submit("again " + i);
                if (i % 3 == 0) {
                    Session f = s.with(CommandOptions.id("fork-" + i)).fork(afterFirst, id + "-f");
                    f.submit("on the fork " + i);
                    if (i % 9 == 0) {
                        f.fork(f.history().journal().getLast().seq(), id + "-f-f").submit("deeper " + i);
                    }
                }
            }
        }
    }

    /** How many sessions {@link #write} makes for {@code n}. */
    static int sessions(int n) {
        return n + (n + 2) / 3 + (n + 8) / 9;
    }

    /** Asserts that the stores at {@code a} and {@code b} hold the same sessions of {@code tenant}, equal in everything copied. */
    static void assertEqual(String a, String b, String tenant, int n) {
        try (StateStore x = StateStores.open(a); StateStore y = StateStores.open(b)) {
            List<SessionSummary> xs = all(x, tenant);
            assertThat(xs).hasSize(sessions(n));
            assertThat(all(y, tenant)).hasSize(xs.size());
            for (SessionSummary s : xs) {
                SessionKey k = SessionKey.of(s.info());
                assertThat(y.session(k)).as(k.toString()).contains(s.info());
                long head = x.head(k);
                assertThat(y.head(k)).as(k.toString()).isEqualTo(head);
                assertThat(lines(y.readOwn(k, 1, head))).as(k.toString()).isEqualTo(lines(x.readOwn(k, 1, head)));
            }
            for (int i = 0; i < n; i++) {
                SessionKey k = new SessionKey(tenant, String.format("s%04d", i));
                assertThat(y.command(k, "req-" + i)).as(k.toString()).isPresent().isEqualTo(x.command(k, "req-" + i));
                if (i % 3 == 0) {
                    assertThat(y.command(k, "fork-" + i)).as(k + " fork").isPresent().isEqualTo(x.command(k, "fork-" + i));
                }
            }
            for (int u = 0; u < USERS; u++) {
                String key = ScopedWrite.userKey(tenant, "u" + u);
                assertThat(y.variables(VariableScope.USER, key)).as(key).isEqualTo(x.variables(VariableScope.USER, key)).isNotEmpty();
            }
            assertThat(y.variables(VariableScope.APP, ScopedWrite.appKey(tenant))).isEqualTo(x.variables(VariableScope.APP, ScopedWrite.appKey(tenant)))
                    .isNotEmpty();
        }
    }

    private static List<String> lines(List<StoredEvent> events) {
        return events.stream().map(e -> ExportLines.of(e).toString()).toList();
    }

    static List<SessionSummary> all(StateStore store, String tenant) {
        List<SessionSummary> out = new ArrayList<>();
        Page<SessionSummary> page = store.list(SessionQuery.tenant(tenant));
        while (true) {
            out.addAll(page.items());
            if (!page.hasNext()) {
                return out;
            }
            page = store.list(SessionQuery.tenant(tenant).at(page.nextCursor()));
        }
    }
}
