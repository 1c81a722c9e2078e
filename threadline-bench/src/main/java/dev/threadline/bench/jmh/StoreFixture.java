package dev.threadline.bench.jmh;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A store of one kind ("memory" or "sqlite", a fresh file) holding one session of a given length. */
final class StoreFixture implements AutoCloseable {
    final StateStore store;
    final Path dir;
    final SessionKey key;
    final long epoch;
    long head;

    StoreFixture(String kind, String session, int messages) throws IOException {
        dir = Files.createTempDirectory("threadline-jmh");
        store = kind.equals("sqlite") ? SqliteStateStore.open(dir.resolve("jmh.db")) : new InMemoryStateStore();
        store.create(JmhEvents.info(session), List.of(JmhEvents.created(session)));
        key = SessionKey.of(JmhEvents.info(session));
        epoch = ((LeaseResult.Acquired) store.acquire(key, "jmh", Duration.ofHours(1), null)).lease().epoch();
        head = 1;
        List<StoredEvent> journal = JmhEvents.journal(session, messages);
        for (int from = 0; from < journal.size(); from += 500) {
            List<StoredEvent> batch = journal.subList(from, Math.min(journal.size(), from + 500));
            head = store.append(AppendRequest.of(key, head, epoch, batch));
        }
    }

    @Override
    public void close() throws IOException {
        store.close();
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(dir);
    }
}
