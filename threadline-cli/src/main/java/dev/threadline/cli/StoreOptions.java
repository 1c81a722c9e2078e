package dev.threadline.cli;

import dev.threadline.core.runtime.Threadline;
import dev.threadline.core.store.StateStore;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
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

    /** Opens a runtime on the store, runs {@code action} with the command's output, closes both; exit code 0. */
    int withRuntime(CommandSpec spec, java.util.function.BiConsumer<Threadline, PrintWriter> action) {
        PrintWriter out = spec.commandLine().getOut();
        try (Threadline tl = Threadline.builder().store(open()).build()) {
            action.accept(tl, out);
        } finally {
            out.flush();
        }
        return 0;
    }
}
