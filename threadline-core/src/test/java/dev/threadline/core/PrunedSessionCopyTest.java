package dev.threadline.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.runtime.PrunePolicy;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SessionCopy} of pruned sessions (ADR 0045, issue 24) between two in-memory stores: a pruned session goes
 * over as its base and its events after it, a fork of it as its own events; both load in the destination as in the
 * source; a rerun writes nothing; a destination whose base differs is refused by name. Between the real backends:
 * threadline-cli's PrunedSessionsCopyTest.
 */
class PrunedSessionCopyTest {
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

    /** Session "plain", session "pruned" (pruned to its latest checkpoint) and its fork "pruned-f" after the base. */
    private void fixture(Tenant t) {
        t.create("plain", SessionConfig.DEFAULT).submit("what is 1+1");
        Session p = t.create("pruned", SessionConfig.DEFAULT);
        for (int i = 0; i < 4; i++) {
            p.submit("what is " + i + "+2");
        }
        src.lifecycle().prune("acme", "pruned", PrunePolicy.keepLatest(1));
        p.fork(source.head(key("pruned")), "pruned-f").submit("on the fork"); // at the head: after the base
        p.submit("after the fork");
    }

    private static SessionKey key(String id) {
        return new SessionKey("acme", id);
    }

    @Test
    void aPrunedSessionGoesOverAsItsBaseAndTheEventsAfterItAndLoadsTheSame() {
        fixture(src.tenant("acme"));

        CopyReport r = SessionCopy.between(source, dest).tenant("acme").run();

        assertThat(r.sessions()).isEqualTo(3);
        assertThat(r.created()).isEqualTo(3);
        assertThat(r.events()).isEqualTo(r.eventsCompared()).isPositive();
        for (String id : List.of("plain", "pruned", "pruned-f")) {
            SessionKey k = key(id);
            assertThat(dest.session(k)).as(id).isEqualTo(source.session(k));
            assertThat(dest.historyBase(k)).as(id).isEqualTo(source.historyBase(k));
            assertThat(dest.head(k)).as(id).isEqualTo(source.head(k));
            assertThat(dest.readOwn(k, 1, dest.head(k))).as(id).isEqualTo(source.readOwn(k, 1, source.head(k)));
        }
        HistoryBase base = dest.historyBase(key("pruned")).orElseThrow();
        assertThat(dest.readOwn(key("pruned"), 1, base.seq())).isEmpty();

        Threadline there = runtime(dest);
        for (String id : List.of("pruned", "pruned-f")) {
            assertThat(there.tenant("acme").open(id).state()).as(id).isEqualTo(src.tenant("acme").open(id).state());
        }
        assertThat(there.tenant("acme").open("pruned").submit("goes on").reply()).isEqualTo("ack goes on");
    }

    @Test
    void aRerunWritesNothingTwiceAndContinuesAPrunedSessionTheSourceMovedOn() {
        fixture(src.tenant("acme"));
        SessionCopy.between(source, dest).tenant("acme").run();
        CopyReport same = SessionCopy.between(source, dest).tenant("acme").run();
        assertThat(same.created()).isZero();
        assertThat(same.events()).isZero();
        assertThat(same.eventsPresent()).isEqualTo(same.eventsCompared()).isPositive();

        src.tenant("acme").open("pruned").submit("later");
        CopyReport again = SessionCopy.between(source, dest).tenant("acme").run();
        assertThat(again.resumed()).isEqualTo(1);
        assertThat(again.events()).isPositive();
        assertThat(dest.readOwn(key("pruned"), 1, dest.head(key("pruned")))).isEqualTo(source.readOwn(key("pruned"), 1, source.head(key("pruned"))));
    }

    @Test
    void aDestinationWhoseBaseDiffersIsRefusedByName() {
        fixture(src.tenant("acme"));
        SessionCopy.between(source, dest).tenant("acme").run();
        src.tenant("acme").open("pruned").submit("more");
        src.tenant("acme").open("pruned").submit("and more");
        src.lifecycle().prune("acme", "pruned", PrunePolicy.keepLatest(1)); // the source's base moves on; the destination's stays
        long head = dest.head(key("pruned"));

        assertThatThrownBy(() -> SessionCopy.between(source, dest).tenant("acme").session("pruned").run())
                .isInstanceOf(ThreadlineException.class).hasMessageContaining("session 'pruned'")
                .hasMessageContaining("starts in the destination from a base through seq");
        assertThat(dest.head(key("pruned"))).isEqualTo(head);
    }

    @Test
    void anExportCarriesTheBaseOnALineOfItsOwnAndAnImportCreatesTheSessionFromIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        fixture(src.tenant("acme"));
        java.nio.file.Path file = dir.resolve("acme.jsonl");
        try (java.io.Writer out = java.nio.file.Files.newBufferedWriter(file)) {
            SessionArchive.export(source, "acme", out);
        }
        assertThat(java.nio.file.Files.readAllLines(file)).filteredOn(l -> l.startsWith("{\"kind\":\"base\"")).hasSize(1);

        CopyReport r = SessionArchive.importFile(dest, file);
        assertThat(r.created()).isEqualTo(3);
        for (String id : List.of("plain", "pruned", "pruned-f")) {
            SessionKey k = key(id);
            assertThat(dest.historyBase(k)).as(id).isEqualTo(source.historyBase(k));
            assertThat(dest.readOwn(k, 1, dest.head(k))).as(id).isEqualTo(source.readOwn(k, 1, source.head(k)));
        }
        assertThat(runtime(dest).tenant("acme").open("pruned").state()).isEqualTo(src.tenant("acme").open("pruned").state());
        assertThat(SessionArchive.importFile(dest, file).events()).as("a rerun writes nothing").isZero();

        String text = java.nio.file.Files.readString(file);
        java.nio.file.Files.writeString(file, text.replace("keep the latest 1 checkpoint", "keep the latest 2 checkpoint"));
        assertThatThrownBy(() -> SessionArchive.check(file)).hasMessageContaining("does not match its checksum");
    }
}
