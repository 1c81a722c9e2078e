package dev.threadline.cli;

import dev.threadline.core.SessionArchive;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.StateStores;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code threadline import --store URL [--file FILE]}: reads an export ({@link SessionArchive}) from the file
 * or stdin (kept in a temporary file: the whole input is checked before anything is written) into the
 * store (a SQLite file is created). A damaged input is refused naming the line, with nothing written.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Read an export of `threadline export` (from --file or stdin) into a store: checked whole first,",
                "a damaged file is refused naming the line and nothing is written. Rerun it after a crash: it resumes."})
final class ImportCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;
    @Option(names = "--file", paramLabel = "FILE", description = "read FILE instead of stdin")
    Path file;
    @Option(names = "--progress", description = "print a line for each session once it is written")
    boolean progress;
    @ParentCommand
    Main main;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Path input = file;
        Path spooled = null;
        try {
            if (input == null) {
                spooled = Files.createTempFile("threadline-import-", ".jsonl");
                Files.copy(main.in, spooled, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                input = spooled;
            } else if (!Files.isRegularFile(input)) {
                throw new ThreadlineException("no file " + input + "; nothing was imported");
            }
            Path checked = input;
            SessionArchive.check(checked); // a damaged file is refused before the store is opened (or created)
            try (StateStore s = StateStores.open(store.url())) {
                CopyReport r = SessionArchive.importFile(s, checked, c -> {
                    if (progress) {
                        out.println("imported " + c.sessionId() + ": head " + c.head() + ", " + c.events() + " events written, "
                                + c.eventsPresent() + " already there");
                        out.flush();
                    }
                });
                out.println("Imported " + r.sessions() + " session(s) of tenant " + r.tenant() + " into " + store.shown() + ": "
                        + r.created() + " new, " + r.resumed() + " resumed, " + r.unchanged() + " already there; " + r.events()
                        + " events written, " + r.eventsPresent() + " already there, " + r.commands() + " command record(s).");
                out.println("Compared " + r.sessions() + " journal(s) with the file: equal (" + r.eventsCompared() + " events).");
            }
        } catch (IOException e) {
            throw new ThreadlineException("the input could not be read (" + e.getMessage() + "); nothing was imported");
        } finally {
            if (spooled != null) {
                spooled.toFile().delete(); // a temporary file: left behind at worst
            }
            out.flush();
        }
        return 0;
    }
}
