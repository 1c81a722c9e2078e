package dev.threadline.cli;

import dev.threadline.core.SessionArchive;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.runtime.ExportReport;
import dev.threadline.core.store.SessionQuery;
import dev.threadline.core.store.StateStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code threadline export --tenant T [--store URL] [--file FILE]}: the tenant's sessions as JSON Lines with a
 * checksum per session ({@link SessionArchive}), to stdout (nothing else is printed there) or to a file.
 * A tenant without sessions is refused before anything is written.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write a tenant's sessions (with branches, variables and command records) as JSON Lines,",
                "with a SHA-256 per session, to stdout or --file; `threadline import` reads it back."})
final class ExportCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;
    @Mixin
    TenantOption tenant;
    @Option(names = "--file", paramLabel = "FILE", description = "write to FILE (replaced) instead of stdout, and print a summary")
    Path file;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String t = tenant.id(spec);
        PrintWriter out = spec.commandLine().getOut();
        try (StateStore s = store.openExisting()) {
            if (s.list(new SessionQuery(t, null, null, 1, null)).items().isEmpty()) {
                throw new ThreadlineException("tenant " + t + " has no sessions in " + store.shown() + "; nothing was exported");
            }
            if (file == null) {
                SessionArchive.export(s, t, out);
                return 0;
            }
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName() + ".", ".part");
            try {
                ExportReport r;
                try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    r = SessionArchive.export(s, t, w);
                }
                Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                out.println("Exported " + r.sessions() + " session(s) of tenant " + t + " (" + r.events() + " events, " + r.lines()
                        + " lines) from " + store.shown() + " to " + file + ".");
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new ThreadlineException("the export could not be written (" + e.getMessage() + ")");
        } finally {
            out.flush();
        }
        return 0;
    }
}
