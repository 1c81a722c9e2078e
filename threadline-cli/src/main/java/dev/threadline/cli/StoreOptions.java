package dev.threadline.cli;

import dev.threadline.core.store.StateStore;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --db PATH}: the SQLite file that holds the sessions (default ~/.threadline/threadline.db). */
final class StoreOptions {
    @Option(names = "--db", paramLabel = "PATH", description = "SQLite database file (default: ~/.threadline/threadline.db)")
    Path db;

    Path path() {
        return db != null ? db : Path.of(System.getProperty("user.home"), ".threadline", "threadline.db");
    }

    StateStore open() {
        return SqliteStateStore.open(path());
    }
}
