package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.jdbc.OneLine;
import dev.threadline.store.tck.RoundTripFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.setUserVar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rows damaged behind the store's back give clear errors naming what is damaged, never wrong data or a silent duplicate. */
class SqliteCorruptionTest {
    /** The rows of session 's' (the journal is keyed by the session's number since version 5). */
    private static final String S_ROWS = "sid = (SELECT sid FROM sessions WHERE id = 's')";

    private static final SessionKey S = new SessionKey("default", "s");
    @TempDir
    Path dir;
    private Path file;
    private SqliteStateStore store;
    private RawDb raw;
    private long epoch;

    @BeforeEach
    void open() throws Exception {
        file = dir.resolve("c.db");
        store = SqliteStateStore.open(file);
        List<dev.threadline.core.event.StoredEvent> events = new ArrayList<>(List.of(first(root("s"))));
        events.addAll(messages("s", 2, 4));
        store.create(root("s"), events);
        epoch = ((LeaseResult.Acquired) store.acquire(S, "w", Duration.ofMinutes(1), null)).lease().epoch();
        raw = new RawDb(file);
    }

    @AfterEach
    void close() throws Exception {
        raw.close();
        store.close();
    }

    @Test
    void aGarbagePayloadIsAStorageErrorNamingSessionAndSeq() throws Exception {
        raw.exec("UPDATE events SET payload = ? WHERE " + S_ROWS + " AND seq = 3", "{\"type\": \"UserMessa\u00e9\", garbage");

        assertThatThrownBy(() -> store.readOwn(S, 1, 5))
                .isInstanceOf(StorageException.class).hasMessageContaining("session 's'").hasMessageContaining("seq 3");
        assertThat(store.readOwn(S, 4, 5)).hasSize(2);
        assertThat(store.readOwn(S, 1, 2)).hasSize(2);
    }

    /** A sealed transcript (ADR 0028) damaged behind the store's back: one line naming the session and the seqs. */
    @Test
    void aDamagedSegmentIsAOneLineErrorNamingSessionAndSeqs() throws Exception {
        store.append(new AppendRequest(S, 5, epoch, messages("s", 6, 20), List.of(), null));
        store.saveSnapshot(S, RoundTripFixtures.snapshot(25));
        assertThat(raw.queryLong("SELECT count(*) FROM segments")).isEqualTo(1);
        assertThat(store.readOwn(S, 1, 25)).hasSize(25);

        raw.exec("UPDATE segments SET payloads = substr(payloads, 1, 700)");
        assertThatThrownBy(() -> store.readOwn(S, 3, 3)).isInstanceOf(StorageException.class)
                .satisfies(e -> assertOneLine(e.getMessage()))
                .hasMessageStartingWith("session 's' segment seq 1..25: corrupt segment (");
        assertThatThrownBy(() -> store.readOwnTranscriptEvents(S, 1, 25)).isInstanceOf(StorageException.class)
                .satisfies(e -> assertOneLine(e.getMessage())).hasMessageContaining("segment seq 1..25");

        raw.exec("UPDATE segments SET payloads = '[' || (SELECT payload FROM events WHERE " + S_ROWS + " AND seq = 1) || ']'");
        assertThatThrownBy(() -> store.readOwn(S, 1, 25)).isInstanceOf(StorageException.class)
                .hasMessageContaining("1 events for 24 sealed rows");

        raw.exec("DELETE FROM segments");
        assertThatThrownBy(() -> store.readOwn(S, 2, 4)).isInstanceOf(StorageException.class)
                .hasMessage("session 's' seq 2: corrupt event row (its payload is sealed but no segment holds it)");
        assertThat(store.readOwn(S, 26, 30)).as("rows after the sealed range still read").isEmpty();
        assertThat(store.readOwn(S, 1, 1)).hasSize(1);
    }

    /** Regression: the message ran onto a second line of Jackson's parser detail ("at [Source: ...]"). */
    @Test
    void corruptRowErrorsAreOneLineNamingSessionAndSeq() throws Exception {
        raw.exec("UPDATE events SET payload = ? WHERE " + S_ROWS + " AND seq = 3", "{\"type\": \"UserMessageReceived\", " + "x".repeat(500));
        raw.exec("UPDATE sessions SET info = '{\"id\": ' WHERE id = 's'");

        assertThatThrownBy(() -> store.readOwn(S, 3, 3)).isInstanceOf(StorageException.class)
                .satisfies(e -> assertOneLine(e.getMessage()))
                .hasMessageStartingWith("session 's' seq 3: corrupt event row (");
        assertThatThrownBy(() -> store.session(S)).isInstanceOf(StorageException.class)
                .satisfies(e -> assertOneLine(e.getMessage()))
                .hasMessageStartingWith("session 's': corrupt session row (");
    }

    private static void assertOneLine(String message) {
        assertThat(message).doesNotContain("\n").doesNotContain("\r");
        assertThat(message.length()).isLessThanOrEqualTo(OneLine.MAX + 80);
    }

    @Test
    void otherDamagedEventColumnsNameTheSeqToo() throws Exception {
        raw.exec("UPDATE events SET time = 'yesterday' WHERE " + S_ROWS + " AND seq = 2");
        raw.exec("UPDATE events SET source = 'martian' WHERE " + S_ROWS + " AND seq = 4");
        raw.exec("UPDATE events SET v = ? WHERE " + S_ROWS + " AND seq = 5", RecordCodec.VERSION + 1);

        assertThatThrownBy(() -> store.readOwn(S, 2, 2)).isInstanceOf(StorageException.class).hasMessageContaining("seq 2");
        assertThatThrownBy(() -> store.readOwn(S, 4, 4)).isInstanceOf(StorageException.class).hasMessageContaining("seq 4");
        assertThatThrownBy(() -> store.readOwn(S, 5, 5)).isInstanceOf(StorageException.class)
                .hasMessageContaining("seq 5").hasMessageContaining("newer");
    }

    @Test
    void aDamagedSessionRowOrVariableIsAStorageErrorNamingIt() throws Exception {
        store.append(new AppendRequest(S, 5, epoch, messages("s", 6, 1), List.of(setUserVar("default", "local", "lang", "\"fr\"")), null));
        raw.exec("UPDATE sessions SET info = 'not json' WHERE id = 's'");
        raw.exec("UPDATE variables SET value = '{broken' WHERE name = 'lang'");

        assertThatThrownBy(() -> store.session(S)).isInstanceOf(StorageException.class).hasMessageContaining("'s'");
        assertThatThrownBy(() -> store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local")))
                .isInstanceOf(StorageException.class).hasMessageContaining("'lang'");
    }

    @Test
    void aDamagedSnapshotIsSkippedBecauseItIsOnlyACache() throws Exception {
        store.saveSnapshot(S, RoundTripFixtures.snapshot(2));
        store.saveSnapshot(S, RoundTripFixtures.snapshot(4));
        raw.exec("UPDATE snapshots SET payload = 'garbage' WHERE seq = 4");

        assertThat(store.latestSnapshot(S, 5)).contains(RoundTripFixtures.snapshot(2));
    }

    @Test
    void aRowWrittenBehindTheStoresBackMovesTheHeadSoAStaleAppendCannotOverwriteIt() throws Exception {
        // a rogue writer put seq 6 in: since version 5 the head is the journal's last seq (no column that could disagree)
        raw.exec("INSERT INTO events SELECT sid, 6, step, time, command_id, source, touches_transcript,"
                + " payload, v, appended FROM events WHERE " + S_ROWS + " AND seq = 5");

        assertThat(store.head(S)).isEqualTo(6);
        assertThatThrownBy(() -> store.append(AppendRequest.of(S, 5, epoch, messages("s", 6, 2))))
                .isInstanceOf(VersionConflictException.class);
        assertThat(raw.queryLong("SELECT count(*) FROM events WHERE " + S_ROWS)).isEqualTo(6);
    }
}
