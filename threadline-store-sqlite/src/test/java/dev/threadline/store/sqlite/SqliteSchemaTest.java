package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
