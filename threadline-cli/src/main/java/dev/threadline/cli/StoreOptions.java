package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Where the sessions are: {@code --store URL} ({@code sqlite:PATH}, {@code postgresql://…},
 * {@code redis://…}, {@code redis-cluster://host:port,…}, {@code memory:}) or its shorthand
 * {@code --db PATH} for {@code sqlite:PATH}; by default {@code sqlite:$HOME/.threadline/threadline.db}.
 * Commands that only read open an existing SQLite file and create nothing; {@code chat} creates a
 * missing file (and, for the default store only, its folder) and says so.
 */
final class StoreOptions {
    @Option(names = "--store", paramLabel = "URL",
            description = {"the store: sqlite:PATH, memory:,", "postgresql://user:pw@host:port/db, redis://host:port",
                    "or redis-cluster://host:port,host:port,...", "(default: sqlite:$HOME/.threadline/threadline.db)"})
    String store;

    @Option(names = "--db", paramLabel = "PATH", description = "shorthand for --store sqlite:PATH")
    Path db;

    /** The default store's file: {@code $HOME/.threadline/threadline.db}, else under {@code user.home}. */
    Path defaultFile() {
        String home = System.getenv("HOME");
        return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".threadline", "threadline.db");
    }

    private boolean isDefault() {
        return store == null && db == null;
    }

    /** The store URL these options name. */
    String url() {
        if (store != null && db != null) {
            throw new InvalidInputException("--db", "give --store or --db, not both");
        }
        if (store != null) {
            return store;
        }
        return "sqlite:" + (db != null ? db : defaultFile());
    }

    /** The URL for messages (passwords hidden). */
    String shown() {
        return StateStores.redact(url());
    }

    /** The SQLite file these options name, or null for another kind of store. */
    private Path sqliteFile() {
        String url = url();
        return url.startsWith("sqlite:") && url.length() > 7 ? sqlitePath(url).toAbsolutePath().normalize() : null;
    }

    /** The file of a {@code sqlite:PATH[?options]} URL (its options, such as {@code keys=}, are not part of it). */
    static Path sqlitePath(String url) {
        int q = url.indexOf('?');
        return Path.of(url.substring(7, q < 0 ? url.length() : q));
    }

    /**
     * Opens the store for {@code chat}: a missing SQLite file is created and {@code out} told so; a
     * missing folder is created only for the default store (a typo in {@code --db} is refused).
     */
    StateStore openForChat(PrintWriter out) {
        Path file = sqliteFile();
        if (file != null && !Files.exists(file)) {
            Path dir = file.getParent();
            if (!Files.isDirectory(dir) && !isDefault()) {
                throw new ThreadlineException("the folder " + dir + " of the store " + file + " does not exist;"
                        + " create it first (nothing was created)");
            }
            StateStore created = StateStores.open(url());
            out.println("Created a new store: " + file);
            return created;
        }
        return StateStores.open(url());
    }

    /** Opens an existing store for a command that only reads or deletes: a missing SQLite file is an error, nothing is created. */
    StateStore openExisting() {
        return StateStores.open(existingUrl());
    }

    /** The URL, once checked that a SQLite file it names exists (nothing is created). */
    String existingUrl() {
        Path file = sqliteFile();
        if (file != null && !Files.isRegularFile(file)) {
            String where = Files.isDirectory(file.getParent()) ? "" : " (its folder " + file.getParent() + " does not exist either)";
            throw new ThreadlineException("no store at " + file + where + "; nothing was created."
                    + " `threadline chat" + (isDefault() ? "" : " --db " + file) + "` creates one");
        }
        return url();
    }

    /** Whether the user named a store (else a config file's store, or the default, applies). */
    boolean given() {
        return !isDefault();
    }

    /** Opens a runtime on the existing store, runs {@code action} with the command's output, closes both; exit code 0. */
    int withRuntime(CommandSpec spec, java.util.function.BiConsumer<Threadline, PrintWriter> action) {
        PrintWriter out = spec.commandLine().getOut();
        try (Threadline tl = Threadline.builder().store(openExisting()).build()) {
            action.accept(tl, out);
        } finally {
            out.flush();
        }
        return 0;
    }
}
