package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.DataSubject;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStores;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threadline sessions prune} on a SQLite file (ADR 0045): one session to its latest checkpoints, a
 * tenant's sessions, a held session refused and untouched, bad usage (exit 2) and an unknown session (exit 1)
 * changing nothing.
 */
class PruneFromTheCliTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private String db() {
        return dir.resolve("p.db").toString();
    }

    private void seed(String... ids) {
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).model(ScriptedModel.demo()).build()) {
            for (String id : ids) {
                Session s = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
                for (int i = 0; i < 20; i++) {
                    s.submit("turn " + i);
                }
            }
        }
    }

    private long ownEvents(String id) {
        try (SqliteStateStore store = SqliteStateStore.open(Path.of(db()))) {
            SessionKey key = new SessionKey("default", id);
            return store.readOwn(key, 1, store.head(key)).size();
        }
    }

    @Test
    void pruneKeepsTheLatestCheckpointsOfOneSessionOrOfEveryOneOfTheTenant() {
        seed("a", "b");
        long before = ownEvents("a");
        Run one = run("sessions", "prune", "--db", db(), "--session", "a", "--keep", "3");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).startsWith("Pruned session a through seq ").contains("(keep the latest 3 checkpoints): removed ");
        assertThat(ownEvents("a")).isLessThan(before);
        assertThat(ownEvents("b")).isEqualTo(before);

        Run again = run("sessions", "prune", "--db", db(), "--session", "a", "--keep", "3");
        assertThat(again.out()).startsWith("Nothing to prune in session a (keep the latest 3 checkpoints)");

        Run all = run("sessions", "prune", "--db", db(), "--keep", "3");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).startsWith("Pruned 1 of 2 sessions (keep the latest 3 checkpoints unless a session has its own): removed ")
                .contains("1 had nothing to prune, 0 under a legal hold, 0 leased by another process.");
        assertThat(ownEvents("b")).isEqualTo(ownEvents("a"));

        Run show = run("sessions", "show", "a", "--db", db());
        assertThat(show.code()).as(show.err()).isZero();
    }

    @Test
    void aHeldSessionIsRefusedAndBadInputChangesNothing() {
        seed("a");
        try (Threadline tl = Threadline.builder().store(StateStores.open("sqlite:" + db())).build()) {
            tl.lifecycle().placeHold(DataSubject.session("default", "a"), "case 7", "legal");
        }
        long before = ownEvents("a");
        Run held = run("sessions", "prune", "--db", db(), "--session", "a", "--keep", "3");
        assertThat(held.code()).isEqualTo(1);
        assertThat(held.err()).contains("legal hold").contains("case 7").doesNotContain("\n\tat ");
        Run tenant = run("sessions", "prune", "--db", db(), "--days", "1");
        assertThat(tenant.out()).contains("1 under a legal hold");

        Run negative = run("sessions", "prune", "--db", db(), "--session", "a", "--keep", "-1");
        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.err()).contains("keep").contains("-1");
        Run both = run("sessions", "prune", "--db", db(), "--keep", "3", "--days", "2");
        assertThat(both.code()).isEqualTo(2);
        Run neither = run("sessions", "prune", "--db", db(), "--session", "a");
        assertThat(neither.code()).isEqualTo(1);
        assertThat(neither.err()).contains("no policy of its own").contains("threadline.keep");
        Run unknown = run("sessions", "prune", "--db", db(), "--session", "nope", "--keep", "3");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err()).contains("nope").hasLineCount(1);
        assertThat(ownEvents("a")).isEqualTo(before);
    }
}
