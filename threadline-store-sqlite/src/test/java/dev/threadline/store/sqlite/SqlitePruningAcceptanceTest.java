package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.store.tck.PruningAcceptance;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's pruning acceptance on SQLite (2,000 events, the latest 100 checkpoints kept), the stored bytes
 * measured as the pages in use (page count less the free list) after a WAL checkpoint, and the file's size
 * after a VACUUM at the end: the prune frees pages, a VACUUM gives them back to the file system.
 */
class SqlitePruningAcceptanceTest {
    @TempDir
    Path dir;

    @Test
    void aPrunedSessionResumesForksKeepWorkingAndTheStoreKeepsFewerBytes() throws Exception {
        Path file = dir.resolve("prune.db");
        TickingClock clock = new TickingClock(StoreFixtures.T0);
        SqliteStateStore store = SqliteStateStore.open(file, SqliteStateStore.Options.defaults().withClock(clock));
        PruningAcceptance.Report r = PruningAcceptance.run(store, clock, 2_000, 100, () -> inUse(file));
        long before = Files.size(file);
        try (RawDb db = new RawDb(file)) {
            db.exec("VACUUM");
            db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        }
        long vacuumed = Files.size(file);
        System.out.println("sqlite: " + r + "; file " + before + " B, after VACUUM " + vacuumed + " B");
        assertThat(vacuumed).isLessThan(before);
        assertThat(r.bytesAfter()).isLessThan(r.bytesBefore() * 3 / 4); // the base keeps the transcript (ADR 0045)
    }

    /** The bytes of the pages in use, after checkpointing the WAL into the file. */
    private static long inUse(Path file) {
        try (RawDb db = new RawDb(file)) {
            db.queryString("PRAGMA wal_checkpoint(TRUNCATE)");
            return (db.queryLong("PRAGMA page_count") - db.queryLong("PRAGMA freelist_count")) * db.queryLong("PRAGMA page_size");
        } catch (SQLException e) {
            throw new UncheckedIOException(new java.io.IOException(e));
        }
    }
}
