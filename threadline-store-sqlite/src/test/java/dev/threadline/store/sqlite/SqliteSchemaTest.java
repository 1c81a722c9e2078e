package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SessionQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store opens only files it can read: its own schema, not a newer one, not another program's
 * tables, not garbage; and what it refuses it leaves exactly as it was. Upgrades from earlier
 * layouts are in {@link SqliteUpgradeTest}.
 */
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

    /**
     * Regression: opening another program's file switched it to WAL (rewriting its header and leaving
     * -wal/-shm files beside it) before finding that its tables were not Threadline's.
     */
    @Test
    void aForeignFileIsRefusedBeforeAnythingIsWrittenToIt() throws Exception {
        Path file = dir.resolve("invoices.db");
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryString("PRAGMA journal_mode")).isEqualTo("delete");
            raw.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total TEXT)");
            raw.exec("INSERT INTO invoices (total) VALUES ('12.50'), ('99.00')");
        }
        String before = sha256(file);

        assertThatThrownBy(() -> SqliteStateStore.open(file))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not Threadline's")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(sha256(file)).as("the file is byte for byte as it was").isEqualTo(before);
        for (String suffix : new String[] {"-wal", "-shm", "-journal"}) {
            assertThat(dir.resolve(file.getFileName() + suffix)).as(suffix).doesNotExist();
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryString("PRAGMA journal_mode")).isEqualTo("delete");
            assertThat(raw.queryLong("SELECT count(*) FROM invoices")).isEqualTo(2);
        }
    }

    @Test
    void aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws Exception {
        Path file = dir.resolve("garbage.db");
        Files.writeString(file, "this is not a sqlite file, just text long enough to have a header ".repeat(20));
        String before = sha256(file);

        assertThatThrownBy(() -> SqliteStateStore.open(file))
                .isInstanceOf(StorageException.class).hasMessageContaining(file.toString());
        assertThat(sha256(file)).isEqualTo(before);
    }

    @Test
    void reopeningKeepsTheSchemaVersion() throws Exception {
        Path file = dir.resolve("ok.db");
        SqliteStateStore.open(file).close();
        SqliteStateStore.open(file).close();
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'table'")).isEqualTo(15); // 7, journal_text, FTS5's table and its 4, history_bases, data_keys
            assertThat(raw.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'commands'")).isEqualTo(1);
        }
    }

    @Test
    void aNewFileIsInWalModeWithTheCurrentLayout() throws Exception {
        Path file = dir.resolve("new.db");
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            assertThat(store.pragma("PRAGMA journal_mode")).isEqualTo("wal");
            assertThat(store.list(SessionQuery.tenant(SessionInfo.DEFAULT_TENANT)).items()).isEmpty();
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
        }
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
