package dev.threadline.core;

import dev.threadline.core.error.Require;
import dev.threadline.core.internal.engine.Archives;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.runtime.ExportReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.StateStore;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A tenant's sessions as one JSON Lines file, to keep or to carry to another store: {@link #export} writes
 * them (parents before branches), each as a block of lines (its description, its own journal events in
 * the line format of {@link dev.threadline.core.export.ExportLines}, its command records) closed by a
 * trailer line with the block's line count and SHA-256; {@link #importFile} reads such a file into a
 * store. The format is described in {@code docs/cli.md}.
 *
 * <p>An import checks the whole file first (every line, the order of seqs, every block's checksum, the
 * file's last line) and, when anything is wrong, refuses it with a
 * {@link dev.threadline.core.error.DamagedArchiveException} naming the line, having written nothing. Then
 * it writes the sessions as {@link SessionCopy} does: seqs, times and ids unchanged, resumable after a
 * crash (a rerun continues, never writes an event twice, refuses a session that differs in the store), and
 * each journal is compared with the file's at the end.
 *
 * {@snippet :
 * try (Writer out = Files.newBufferedWriter(file)) {
 *     SessionArchive.export(store, "acme", out);
 * }
 * CopyReport r = SessionArchive.importFile(otherStore, file);
 * }
 *
 * <p>Stateless and thread-safe; each call works on its own.
 */
public final class SessionArchive {
    private SessionArchive() {}

    /**
     * Writes tenant {@code tenant}'s sessions of {@code store} to {@code out} (flushed, not closed).
     *
     * @return what was written (no sessions when the tenant has none)
     * @throws IOException                                     when writing to {@code out} fails
     * @throws dev.threadline.core.error.InvalidInputException when {@code tenant} is not a valid id
     * @throws dev.threadline.core.error.StorageException      when the store fails or holds a corrupt row
     */
    public static ExportReport export(StateStore store, String tenant, Writer out) throws IOException {
        Require.nonNull(store, "store");
        Require.nonNull(out, "out");
        return Archives.export(store, SessionInfo.checkId(tenant, "tenant"), out);
    }

    /**
     * Checks the export {@code file} whole, as {@link #importFile} does first, and writes nothing.
     *
     * @return what the file holds (its tenant, sessions, events and lines)
     * @throws IOException                                      when the file cannot be read
     * @throws dev.threadline.core.error.DamagedArchiveException when the file is damaged, naming the line
     */
    public static ExportReport check(Path file) throws IOException {
        return Archives.check(Require.nonNull(file, "file"));
    }

    /**
     * Imports the export {@code file} into {@code store}.
     *
     * @return what was written and compared
     * @throws IOException                                      when the file cannot be read
     * @throws dev.threadline.core.error.DamagedArchiveException when the file is damaged (nothing was written)
     * @throws dev.threadline.core.error.ThreadlineException    when a session of the store differs from the file's, naming it
     */
    public static CopyReport importFile(StateStore store, Path file) throws IOException {
        return importFile(store, file, c -> { });
    }

    /**
     * Like {@link #importFile(StateStore, Path)}, telling {@code progress} of each session once it is written
     * and compared.
     *
     * @throws IOException                                      when the file cannot be read
     * @throws dev.threadline.core.error.DamagedArchiveException when the file is damaged (nothing was written)
     * @throws dev.threadline.core.error.ThreadlineException    when a session of the store differs from the file's, naming it
     */
    public static CopyReport importFile(StateStore store, Path file, Consumer<CopyReport.Copied> progress) throws IOException {
        Require.nonNull(store, "store");
        Require.nonNull(file, "file");
        // no runtime, so no runtime clock: the system's times the renewals of the store's leases
        return Archives.importFile(store, file, Require.nonNull(progress, "progress"), java.time.Clock.systemUTC());
    }
}
