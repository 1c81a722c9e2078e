package dev.threadline.store.sqlite;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.messages;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.setUserVar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.StorageException;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.ScopedWrite;
import dev.threadline.store.tck.RoundTripFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows damaged behind the store's back give clear errors naming what is damaged, never wrong data or a silent duplicate. */
class SqliteCorruptionTest {
    @TempDir
    Path dir;
    private Path file;
    private SqliteStateStore store;
    private RawDb raw;

    @BeforeEach
    void open() throws Exception {
        file = dir.resolve("c.db");
        store = SqliteStateStore.open(file);
        List<dev.threadline.core.event.StoredEvent> events = new ArrayList<>(List.of(first(root("s"))));
        events.addAll(messages("s", 2, 4));
        store.create(root("s"), events);
        raw = new RawDb(file);
    }

    @AfterEach
    void close() throws Exception {
        raw.close();
        store.close();
    }

    @Test
    void aGarbagePayloadIsAStorageErrorNamingSessionAndSeq() throws Exception {
        raw.exec("UPDATE events SET payload = ? WHERE session_id = 's' AND seq = 3", "{\"type\": \"UserMessa\u00e9\", garbage");

        assertThatThrownBy(() -> store.readOwn("s", 1, 5))
                .isInstanceOf(StorageException.class).hasMessageContaining("session 's'").hasMessageContaining("seq 3");
        assertThat(store.readOwn("s", 4, 5)).hasSize(2);
        assertThat(store.readOwn("s", 1, 2)).hasSize(2);
    }

    @Test
    void otherDamagedEventColumnsNameTheSeqToo() throws Exception {
        raw.exec("UPDATE events SET time = 'yesterday' WHERE session_id = 's' AND seq = 2");
        raw.exec("UPDATE events SET source = 'martian' WHERE session_id = 's' AND seq = 4");
        raw.exec("UPDATE events SET v = ? WHERE session_id = 's' AND seq = 5", RecordCodec.VERSION + 1);

        assertThatThrownBy(() -> store.readOwn("s", 2, 2)).isInstanceOf(StorageException.class).hasMessageContaining("seq 2");
        assertThatThrownBy(() -> store.readOwn("s", 4, 4)).isInstanceOf(StorageException.class).hasMessageContaining("seq 4");
        assertThatThrownBy(() -> store.readOwn("s", 5, 5)).isInstanceOf(StorageException.class)
                .hasMessageContaining("seq 5").hasMessageContaining("newer");
    }

    @Test
    void aDamagedSessionRowOrVariableIsAStorageErrorNamingIt() throws Exception {
        store.append("s", 5, messages("s", 6, 1), List.of(setUserVar("default", "local", "lang", "\"fr\"")));
        raw.exec("UPDATE sessions SET info = 'not json' WHERE id = 's'");
        raw.exec("UPDATE variables SET value = '{broken' WHERE name = 'lang'");

        assertThatThrownBy(() -> store.session("s")).isInstanceOf(StorageException.class).hasMessageContaining("'s'");
        assertThatThrownBy(() -> store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local")))
                .isInstanceOf(StorageException.class).hasMessageContaining("'lang'");
    }

    @Test
    void aDamagedSnapshotIsSkippedBecauseItIsOnlyACache() throws Exception {
        store.saveSnapshot("s", RoundTripFixtures.snapshot(2));
        store.saveSnapshot("s", RoundTripFixtures.snapshot(4));
        raw.exec("UPDATE snapshots SET payload = 'garbage' WHERE seq = 4");

        assertThat(store.latestSnapshot("s", 5)).contains(RoundTripFixtures.snapshot(2));
    }

    @Test
    void theJournalKeyRefusesADuplicateEvenWhenTheHeadDisagrees() throws Exception {
        // a rogue writer put seq 6 in without moving the head: the primary key is the last line of defence
        raw.exec("INSERT INTO events SELECT session_id, 6, step, time, command_id, source, type, touches_transcript,"
                + " payload, v FROM events WHERE session_id = 's' AND seq = 5");

        assertThatThrownBy(() -> store.append("s", 5, messages("s", 6, 2), List.of()))
                .isInstanceOf(StorageException.class).hasMessageContaining("session 's'");
        assertThat(store.head("s")).isEqualTo(5);
        assertThat(raw.queryLong("SELECT count(*) FROM events WHERE session_id = 's'")).isEqualTo(6);
    }
}
