package dev.threadline.bench.alt;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.json.Json;
import dev.threadline.core.Threadline;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The Threadline runtime a framework adapter runs on in the benchmark: one SQLite file with the store's
 * defaults (WAL, {@code synchronous=FULL}, the same durability as the frameworks' own SQLite stores), and
 * fresh runtimes on the same file for cold loads. Thread-safe.
 */
final class OnThreadline implements AutoCloseable {
    final Path file;
    final Threadline runtime;

    OnThreadline(Path file) {
        this.file = file;
        this.runtime = Threadline.builder().store(SqliteStateStore.open(file)).build();
    }

    /** A new runtime on a newly opened store on the same file, as a new process would start; the caller closes it. */
    Threadline fresh() {
        return Threadline.builder().store(SqliteStateStore.open(file)).build();
    }

    static String durability() {
        return "sqlite WAL, synchronous=FULL (Threadline's SQLite store, its defaults)";
    }

    /** The JSON bytes of a session's journalled events (tenant {@code tenant}), its stored form before the row's columns. */
    long journalBytes(String tenant, String session) throws Exception {
        long bytes = 0;
        for (StoredEvent e : runtime.tenant(tenant).open(session).history().journal()) {
            bytes += Json.mapper().writeValueAsString(e.event()).getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes;
    }

    @Override
    public void close() {
        runtime.close();
    }
}
