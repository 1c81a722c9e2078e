package dev.threadline.bench.kit;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;

/**
 * Where the benchmark puts Threadline's state: {@code sqlite:/path/file.db} or {@code memory:}.
 *
 * @param kind "sqlite" or "memory"
 * @param file the SQLite file (null for memory)
 */
public record StoreUrl(String kind, Path file) {

    /** Parses {@code sqlite:PATH} or {@code memory:}. */
    public static StoreUrl parse(String url) {
        if (url == null || url.isBlank()) {
            throw new InvalidInputException("--store", "give sqlite:/path/file.db or memory:");
        }
        if (url.equals("memory:") || url.equals("memory")) {
            return new StoreUrl("memory", null);
        }
        if (url.startsWith("sqlite:") && url.length() > "sqlite:".length()) {
            return new StoreUrl("sqlite", Path.of(url.substring("sqlite:".length())).toAbsolutePath());
        }
        throw new InvalidInputException("--store", "'" + url + "' is neither sqlite:/path/file.db nor memory:");
    }

    public boolean isSqlite() {
        return kind.equals("sqlite");
    }

    /** The SQLite file of one part of the run: each part gets a fresh file beside the given one. */
    public Path fileFor(String part) {
        String name = file.getFileName().toString();
        String base = name.endsWith(".db") ? name.substring(0, name.length() - 3) : name;
        return file.resolveSibling(base + "-" + part + ".db");
    }

    /** A fresh store for one part of the run (sqlite: a new file; memory: a new store). */
    public StateStore open(String part) {
        return open(part, 0);
    }

    /** Like {@link #open(String)}; on SQLite, at most {@code maxBatch} writes per commit (0: the default, 1: no group commit). */
    public StateStore open(String part, int maxBatch) {
        return isSqlite() ? SqliteStateStore.open(fileFor(part), SqliteStateStore.Options.defaults().withMaxBatch(maxBatch))
                : new InMemoryStateStore();
    }

    /** Reopens the store of a part (sqlite: the same file; memory: impossible, nothing survives). */
    public StateStore reopen(String part) {
        if (!isSqlite()) {
            throw new IllegalStateException("a memory store cannot be reopened");
        }
        return SqliteStateStore.open(fileFor(part));
    }

    @Override
    public String toString() {
        return isSqlite() ? "sqlite:" + file : "memory:";
    }
}
