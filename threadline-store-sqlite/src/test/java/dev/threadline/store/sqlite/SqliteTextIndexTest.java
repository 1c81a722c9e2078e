package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.model.SearchHit;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.SearchRange;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FTS5 index (schema version 8): a version 7 file's messages are indexed by the upgrade, so a
 * search finds what was said before the index existed; a deleted session leaves no row in the index's
 * tables (FTS5's own included), so its words are not in the file's index any more.
 */
class SqliteTextIndexTest {
    @TempDir
    Path dir;

    private static SessionKey create(SqliteStateStore store, String id, String... texts) {
        SessionInfo info = StoreFixtures.root(id);
        List<StoredEvent> events = new ArrayList<>(List.of(StoreFixtures.first(info)));
        for (String t : texts) {
            events.add(StoreFixtures.user(id, events.size() + 1, t));
        }
        store.create(info, events);
        return SessionKey.of(info);
    }

    @Test
    void aVersion7FilesMessagesAreIndexedByTheUpgrade() throws Exception {
        Path file = dir.resolve("v7.db");
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            create(store, "s", "the weather", "the door code is 4712", "the garden");
        }
        OldSchemaFixtures.downgradeToV7(file);

        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            List<SearchHit> hits = store.search(List.of(new SearchRange(new SessionKey(SessionInfo.DEFAULT_TENANT, "s"), 1, 4)), "door code", 5);
            assertThat(hits).extracting(SearchHit::seq).containsExactly(3L);
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("PRAGMA user_version")).isEqualTo(Schema.VERSION);
            assertThat(raw.queryLong("SELECT count(*) FROM journal_text")).isEqualTo(3);
        }
    }

    @Test
    void aDeletedSessionLeavesNothingInTheIndex() throws Exception {
        Path file = dir.resolve("del.db");
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            SessionKey gone = create(store, "gone", "the door code is 4712");
            create(store, "kept", "the garden");
            store.delete(gone);
        }
        try (RawDb raw = new RawDb(file)) {
            assertThat(raw.queryLong("SELECT count(*) FROM journal_text")).isEqualTo(1);
            assertThat(raw.queryLong("SELECT count(*) FROM journal_fts WHERE journal_fts MATCH '\"4712\"'")).isZero();
            assertThat(raw.queryLong("SELECT count(*) FROM journal_fts WHERE journal_fts MATCH '\"garden\"'")).isEqualTo(1);
            assertThat(raw.queryString("PRAGMA integrity_check")).isEqualTo("ok");
        }
    }
}
