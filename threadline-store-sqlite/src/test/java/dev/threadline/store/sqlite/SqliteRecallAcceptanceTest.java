package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.store.tck.RecallAcceptance;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 38's acceptance on SQLite: after 2,000 turns and many compactions, recall finds turn 3's door code first (FTS5). */
class SqliteRecallAcceptanceTest {
    @TempDir
    Path dir;

    @Test
    void recallFindsTheDoorCodeFirstAfter2000Turns() {
        TickingClock clock = new TickingClock(StoreFixtures.T0);
        SqliteStateStore store = SqliteStateStore.open(dir.resolve("recall.db"), SqliteStateStore.Options.defaults().withClock(clock));
        assertThat(RecallAcceptance.run(store, clock, 2_000)).contains("4712");
    }
}
