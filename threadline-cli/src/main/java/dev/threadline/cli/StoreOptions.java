package dev.threadline.cli;

import dev.threadline.core.runtime.Threadline;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Where the sessions are: {@code --store URL} ({@code sqlite:PATH}, {@code postgresql://…},
 * {@code redis://…}, {@code redis-cluster://host:port,…}, {@code memory:}) or its shorthand
 * {@code --db PATH} for {@code sqlite:PATH}; by default {@code sqlite:~/.threadline/threadline.db}.
 */
final class StoreOptions {
    @Option(names = "--store", paramLabel = "URL",
            description = {"the store: sqlite:PATH, postgresql://user:pw@host:port/db, redis://host:port,",
                    "redis-cluster://host:port,host:port,... or memory: (default: sqlite:~/.threadline/threadline.db)"})
    String store;

    @Option(names = "--db", paramLabel = "PATH", description = "shorthand for --store sqlite:PATH")
    Path db;

    /** The store URL these options name. */
    String url() {
        if (store != null && db != null) {
            throw new dev.threadline.core.InvalidInputException("--db", "give --store or --db, not both");
        }
        if (store != null) {
            return store;
        }
        Path file = db != null ? db : Path.of(System.getProperty("user.home"), ".threadline", "threadline.db");
        return "sqlite:" + file;
    }

    /**
     * The SQLite file these options name, for commands that keep files beside it (serve, keys).
     *
     * @throws dev.threadline.core.InvalidInputException when the store is not a SQLite file
     */
    Path path() {
        String url = url();
        if (!url.startsWith("sqlite:")) {
            throw new dev.threadline.core.InvalidInputException("--store", "this command keeps its API keys beside a SQLite"
                    + " file for now; give --db PATH or --store sqlite:PATH (a shared key store for other backends is not built yet)");
        }
        return Path.of(url.substring("sqlite:".length()));
    }

    /** The URL for messages (passwords hidden). */
    String shown() {
        return StateStores.redact(url());
    }

    StateStore open() {
        return StateStores.open(url());
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
