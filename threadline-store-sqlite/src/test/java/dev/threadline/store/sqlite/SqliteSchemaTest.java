package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.StorageException;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.SessionInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store opens only files it can read: its own schema, not a newer one, not someone else's tables, not garbage. */
class SqliteSchemaTest {
    @TempDir
    Path dir;

    @Test
    void aFileFromANewerThreadlineIsRefusedAndLeftAlone() throws Exception {
        Path file = dir.resolve("newer.db");
        SqliteStateStore.open(file).close();
        try (RawDb raw = new RawDb(file)) {
            raw.exec("PRAGMA user_version = 99");
        }

        assertThatThrownBy(() -> SqliteStateStore.open(file))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("schema version 99").hasMessageContaining("upgrade Threadline");
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(99);
        }
    }

    @Test
    void aFileWithOtherTablesIsRefused() throws Exception {
        Path file = dir.resolve("foreign.db");
        try (RawDb raw = new RawDb(file)) {
            raw.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
        }

        assertThatThrownBy(() -> SqliteStateStore.open(file))
                .isInstanceOf(StorageException.class).hasMessageContaining("not Threadline's");
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name = 'events'")).isZero();
        }
    }

    @Test
    void aFileThatIsNotADatabaseIsRefused() throws Exception {
        Path file = dir.resolve("garbage.db");
        Files.writeString(file, "this is not a sqlite file, just text long enough to have a header ".repeat(20));

        assertThatThrownBy(() -> SqliteStateStore.open(file))
                .isInstanceOf(StorageException.class).hasMessageContaining(file.toString());
    }

    @Test
    void reopeningKeepsTheSchemaVersion() throws Exception {
        Path file = dir.resolve("ok.db");
        SqliteStateStore.open(file).close();
        SqliteStateStore.open(file).close();
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'table'")).isEqualTo(4);
        }
    }

    @Test
    void aVersion1FileIsUpgradedInPlaceAndKeepsItsSessions() throws Exception {
        Path file = dir.resolve("v1.db");
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            Instant t0 = Instant.parse("2025-01-01T00:00:00Z");
            SessionInfo info = SessionInfo.create("s1", SessionConfig.DEFAULT, t0);
            store.create(info, List.of(new StoredEvent("s1", 1, 1, t0, "c", CheckpointSource.INPUT, new Event.SessionCreated(info))));
        }
        try (RawDb raw = new RawDb(file)) { // turn it back into the version 1 layout
            raw.exec("DROP INDEX sessions_by_tenant");
            raw.exec("DROP INDEX sessions_by_user");
            raw.exec("CREATE INDEX sessions_by_tenant ON sessions(tenant, updated_at DESC, id)");
            raw.exec("CREATE INDEX sessions_by_user ON sessions(tenant, user_id, updated_at DESC, id)");
            raw.exec("PRAGMA user_version = 1");
        }

        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            assertThat(store.session("s1")).isPresent();
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(2);
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%updated_at%'"))
                    .as("no index holds updated_at").isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE name IN ('sessions_by_tenant', 'sessions_by_user')"))
                    .isEqualTo(2);
        }
    }
}
