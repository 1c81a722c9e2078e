package dev.threadline.cli;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.store.StateStores;
import dev.threadline.store.sqlite.SqliteBackup;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code threadline backup --store sqlite:PATH --to FILE}: an online, consistent copy of a SQLite store
 * ({@link SqliteBackup}) while other processes keep running turns on it. PostgreSQL and Redis have
 * their own procedures, which this command names instead (docs/operations.md).
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Copy a SQLite store to a new file while it stays in use: the copy is the store as of one",
                "committed transaction. PostgreSQL and Redis: see docs/operations.md."})
final class BackupCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;
    @Option(names = "--to", paramLabel = "FILE", required = true, description = "the new backup file (refused if it exists)")
    Path to;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String url = store.url();
        if (!url.startsWith("sqlite:") || url.length() == 7) {
            if (!url.startsWith("postgres") && !url.startsWith("redis")) {
                StateStores.open(url).close(); // a URL no backend takes is bad usage, said as every command says it
            }
            throw new ThreadlineException(elsewhere(store.shown()));
        }
        store.existingUrl(); // a missing file is refused, not created
        SqliteBackup.Info info = SqliteBackup.backup(StoreOptions.sqlitePath(url), to);
        spec.commandLine().getOut().println("Backed up " + store.shown() + " to " + info.file() + ": " + info.sessions()
                + " sessions, schema version " + info.schemaVersion() + ", " + info.bytes() + " bytes.");
        return 0;
    }

    /** The one line that sends a user of another backend to its own procedure. */
    static String elsewhere(String shown) {
        if (shown.startsWith("postgres")) {
            return "backup copies SQLite stores only; back up PostgreSQL " + shown + " with pg_dump (logical) or"
                    + " pg_basebackup with WAL archiving (point-in-time recovery): see docs/operations.md";
        }
        if (shown.startsWith("redis")) {
            return "backup copies SQLite stores only; back up Redis " + shown + " with its RDB snapshots (BGSAVE)"
                    + " or its append-only file (AOF): see docs/operations.md";
        }
        return "backup copies SQLite stores only, and " + shown + " is not one: see docs/operations.md";
    }
}
