package dev.threadline.cli;

import dev.threadline.store.sqlite.SqliteBackup;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code threadline restore --from FILE --to sqlite:PATH [--force]}: checks a backup ({@code PRAGMA
 * integrity_check}, a Threadline store, a schema version this build reads) and puts it in place in one
 * rename ({@link SqliteBackup#restore}). An existing store is replaced only with {@code --force}, and
 * never while a process has it open.
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Check a backup made by `threadline backup` and restore it as a SQLite store.",
                "Sessions deleted or swept since the backup come back: see docs/operations.md."})
final class RestoreCommand implements Callable<Integer> {
    @Option(names = "--from", paramLabel = "FILE", required = true, description = "the backup file")
    Path from;
    @Option(names = "--to", paramLabel = "URL", required = true, description = "the store to restore: sqlite:PATH")
    String to;
    @Option(names = "--force", description = "replace an existing store (refused while a process has it open)")
    boolean force;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!to.startsWith("sqlite:") || to.length() == 7) {
            throw new ParameterException(spec.commandLine(), "--to must be sqlite:PATH (restore writes SQLite stores only),"
                    + " was '" + dev.threadline.core.store.StateStores.redact(to) + "'; see docs/operations.md for the other backends");
        }
        SqliteBackup.Info info = SqliteBackup.restore(from, StoreOptions.sqlitePath(to), force);
        var out = spec.commandLine().getOut();
        out.println("Restored " + from.toAbsolutePath().normalize() + " to sqlite:" + info.file() + ": " + info.sessions()
                + " sessions, schema version " + info.schemaVersion() + ".");
        out.println("Sessions deleted or expired since the backup are back; `threadline sessions sweep --db " + info.file()
                + "` removes the expired ones again.");
        return 0;
    }
}
