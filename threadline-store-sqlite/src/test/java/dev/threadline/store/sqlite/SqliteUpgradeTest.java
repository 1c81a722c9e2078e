package dev.threadline.store.sqlite;

import dev.threadline.core.internal.store.EpochNanos;
import static dev.threadline.store.tck.StoreFixtures.branch;
import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.internal.store.Lineage;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.SessionSummary;
import dev.threadline.store.tck.RoundTripFixtures;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of every earlier table layout, built with that layout's own DDL ({@link OldSchemaFixtures})
 * and filled with rows, are upgraded in place when opened: every session, event, snapshot and
 * variable reads back, per tenant, and the upgraded file takes leases and command records.
 */
class SqliteUpgradeTest {
    private static final SessionKey S1 = new SessionKey("acme", "s1");
    private static final SessionKey B1 = new SessionKey("acme", "b1");
    private static final SessionKey OTHER = new SessionKey("other", "o1");

    @TempDir
    Path dir;

    private final SessionInfo s1 = root("s1", "acme", "alice");
    private final SessionInfo b1 = branch(s1, "b1", 2);
    private final SessionInfo o1 = root("o1", "other", "bob");
    private final List<StoredEvent> s1Events = journal(s1, 4);
    private final List<StoredEvent> b1Events = List.of(first(b1), StoreFixtures.user("b1", 4, "on the branch"));
    private final List<StoredEvent> o1Events = journal(o1, 2);

    private static List<StoredEvent> journal(SessionInfo info, int length) {
        List<StoredEvent> out = new ArrayList<>(List.of(first(info)));
        out.addAll(messages(info.id(), 2, length - 1));
        return out;
    }

    /** A version 1 or 2 file with three sessions (a root, its branch, another tenant's), a snapshot and a variable. */
    private Path oldFile(int version) throws Exception {
        Path file = dir.resolve("v" + version + ".db");
        long t = EpochNanos.of(StoreFixtures.T0);
        try (RawDb raw = OldSchemaFixtures.create(file, version)) {
            OldSchemaFixtures.session(raw, b1, 4, t + 3); // a branch before its parent: the copy must not care
            OldSchemaFixtures.session(raw, s1, 4, t + 1);
            OldSchemaFixtures.session(raw, o1, 2, t + 2);
            OldSchemaFixtures.events(raw, s1Events);
            OldSchemaFixtures.events(raw, b1Events);
            OldSchemaFixtures.events(raw, o1Events);
            OldSchemaFixtures.snapshot(raw, "s1", RoundTripFixtures.snapshot(2));
            OldSchemaFixtures.variable(raw, "user", ScopedWrite.userKey("acme", "alice"), "lang", "\"fr\"");
        }
        return file;
    }

    @Test
    void aVersion2FileIsUpgradedToTheCurrentVersionAndReadsBackWhole() throws Exception {
        checkUpgraded(oldFile(2));
    }

    @Test
    void aVersion1FileIsUpgradedThroughEveryStepToTheCurrentVersion() throws Exception {
        checkUpgraded(oldFile(1));
    }

    @Test
    void aVersion3FileGainsTheInterruptsTableAndKeepsItsRows() throws Exception {
        Path file = dir.resolve("v3.db");
        try (RawDb raw = OldSchemaFixtures.createV4(file)) {
            OldSchemaFixtures.sessionV4(raw, s1, 4, EpochNanos.of(StoreFixtures.T0));
            OldSchemaFixtures.eventsV4(raw, "acme", s1Events);
            raw.exec("DROP TABLE interrupts"); // what a version 3 file is: the version 4 tables without it
            raw.exec("PRAGMA user_version = 3");
        }
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            assertThat(store.readOwn(S1, 1, 100)).isEqualTo(s1Events);
            long epoch = ((LeaseResult.Acquired) store.acquire(S1, "w", Duration.ofMinutes(1), null)).lease().epoch();
            assertThat(store.requestInterrupt(S1, epoch, "stop")).isTrue();
            assertThat(store.takeInterruptRequest(store.lease(S1).orElseThrow())).contains("stop");
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryLong("SELECT count(*) FROM pragma_foreign_key_check")).isZero();
        }
    }

    @Test
    void aVersion4FileGetsItsJournalInKeyOrderWithNanosecondTimesAndReadsBackWhole() throws Exception {
        Path file = dir.resolve("v4.db");
        long t = EpochNanos.of(StoreFixtures.T0);
        try (RawDb raw = OldSchemaFixtures.createV4(file)) {
            OldSchemaFixtures.sessionV4(raw, s1, 4, t + 1);
            OldSchemaFixtures.sessionV4(raw, b1, 4, t + 3);
            OldSchemaFixtures.sessionV4(raw, o1, 2, t + 2);
            OldSchemaFixtures.eventsV4(raw, "acme", s1Events);
            OldSchemaFixtures.eventsV4(raw, "acme", b1Events);
            OldSchemaFixtures.eventsV4(raw, "other", o1Events);
            OldSchemaFixtures.snapshotV4(raw, "acme", "s1", RoundTripFixtures.snapshot(2));
            OldSchemaFixtures.variable(raw, "user", ScopedWrite.userKey("acme", "alice"), "lang", "\"fr\"");
        }
        checkUpgraded(file);
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("SELECT count(*) FROM events WHERE typeof(time) <> 'integer'")).as("times as nanoseconds").isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v4'")).as("old tables gone").isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name IN ('events', 'snapshots')"
                    + " AND sql LIKE '%WITHOUT ROWID'")).isEqualTo(2);
            assertThat(raw.queryLong("SELECT count(DISTINCT sid) FROM sessions WHERE sid > 0")).as("each session numbered once")
                    .isEqualTo(raw.queryLong("SELECT count(*) FROM sessions"));
            assertThat(raw.queryLong("SELECT count(*) FROM events e JOIN sessions s ON s.sid = e.sid AND s.tenant = 'other'"))
                    .as("o1's events keyed by o1's number").isEqualTo(2);
        }
    }

    @Test
    void aVersion4TimeThatIsNoInstantFailsTheUpgradeAndLeavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("v4-bad.db");
        try (RawDb raw = OldSchemaFixtures.createV4(file)) {
            OldSchemaFixtures.sessionV4(raw, s1, 4, 1);
            OldSchemaFixtures.eventsV4(raw, "acme", s1Events);
            raw.exec("UPDATE events SET time = 'yesterday' WHERE seq = 2");
        }
        assertThatThrownBy(() -> SqliteStateStore.open(file).close()).hasMessageContaining("yesterday");
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(4);
            assertThat(raw.queryLong("SELECT count(*) FROM events")).isEqualTo(4);
        }
    }

    @Test
    void aVersion5FileReadsBackWholeAndSealsItsTranscriptAtItsNextSnapshot() throws Exception {
        Path file = dir.resolve("v5.db");
        List<StoredEvent> longer = new ArrayList<>(s1Events);
        longer.addAll(messages("s1", 5, 30));
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            store.create(s1, s1Events.subList(0, 1));
            long epoch = ((LeaseResult.Acquired) store.acquire(S1, "w", Duration.ofMinutes(1), null)).lease().epoch();
            store.append(new AppendRequest(S1, 1, epoch, longer.subList(1, longer.size()), List.of(), null));
            store.release(store.lease(S1).orElseThrow());
        }
        OldSchemaFixtures.downgradeToV5(file);
        try (RawDb raw = new RawDb(file)) {
            raw.exec("UPDATE events SET v = 2 WHERE seq = 7"); // a record of version 2: sealed in the current form
        }

        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            assertThat(store.readOwn(S1, 1, 100)).isEqualTo(longer);
            store.saveSnapshot(S1, RoundTripFixtures.snapshot(30));
            assertThat(store.readOwn(S1, 1, 100)).isEqualTo(longer);
            assertThat(store.readOwnTranscriptEvents(S1, 1, 100))
                    .isEqualTo(longer.stream().filter(e -> e.event().touchesTranscript()).map(StoredEvent::event).toList());
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryLong("SELECT count(*) FROM segments")).isEqualTo(1);
            assertThat(raw.queryLong("SELECT count(*) FROM events WHERE payload IS NULL")).as("seq 2..30 sealed").isEqualTo(29);
            assertThat(raw.queryLong("SELECT count(*) FROM events WHERE payload IS NULL AND seq > 30")).isZero();
            assertThat(raw.queryString("PRAGMA integrity_check")).isEqualTo("ok");
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v5'")).as("old table gone").isZero();
        }
    }

    private void checkUpgraded(Path file) throws Exception {
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            assertThat(store.session(S1)).contains(s1);
            assertThat(store.session(B1)).contains(b1);
            assertThat(store.session(OTHER)).contains(o1);
            assertThat(store.session(new SessionKey("other", "s1"))).as("ids are per tenant now").isEmpty();
            assertThat(store.readOwn(S1, 1, 100)).isEqualTo(s1Events);
            assertThat(store.readOwn(OTHER, 1, 100)).isEqualTo(o1Events);
            List<StoredEvent> branchJournal = new ArrayList<>(s1Events.subList(0, 2));
            branchJournal.addAll(b1Events);
            assertThat(Lineage.read(store, B1, 1, 4)).isEqualTo(branchJournal);
            assertThat(store.branches(S1)).containsExactly("b1");
            assertThat(store.latestSnapshot(S1, 10)).contains(RoundTripFixtures.snapshot(2));
            assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("acme", "alice"))).containsOnlyKeys("lang");
            assertThat(store.list(SessionQuery.tenant("acme")).items()).extracting(SessionSummary::headSeq).containsExactly(4L, 4L);
            assertThat(store.list(SessionQuery.tenant("acme")).items()).extracting(x -> x.info().id()).containsExactly("b1", "s1");
            assertThat(store.lease(S1)).as("leases start free").isEmpty();

            long epoch = ((LeaseResult.Acquired) store.acquire(S1, "w", Duration.ofMinutes(1), null)).lease().epoch();
            assertThat(epoch).isEqualTo(1);
            CommandRecord c = new CommandRecord(S1, "c1", "submit:x", 5, null);
            assertThat(store.append(new AppendRequest(S1, 4, epoch, messages("s1", 5, 1), List.of(), c))).isEqualTo(5);
            assertThat(store.command(S1, "c1")).contains(c);
            assertThat(store.requestInterrupt(S1, epoch, "stop")).isTrue();
            assertThat(store.takeInterruptRequest(store.lease(S1).orElseThrow())).contains("stop");
            store.delete(B1);
            assertThat(store.branches(S1)).isEmpty();
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryString("PRAGMA integrity_check")).isEqualTo("ok");
            assertThat(raw.queryLong("SELECT count(*) FROM pragma_foreign_key_check")).isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v2'")).as("old tables gone").isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%updated_at%'"))
                    .as("no index holds updated_at").isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM events")).as("s1 five, o1 two, b1 deleted").isEqualTo(7);
        }
    }
}
