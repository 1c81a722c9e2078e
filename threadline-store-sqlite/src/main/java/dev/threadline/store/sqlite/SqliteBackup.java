package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Online backups of a SQLite store, and their restore. {@link #backup} copies a store that other
 * connections and processes keep writing to: the copy is the store as of one committed transaction,
 * never half of one. {@link #restore} checks a backup and puts it in place of a store.
 *
 * <p>The copy is made with {@code VACUUM INTO}, not the online backup API ({@code sqlite3_backup}, which
 * sqlite-jdbc offers as {@code backup to}): {@code VACUUM INTO} runs as one read transaction, and in WAL
 * mode a reader neither waits for the writers nor makes them wait, so the copy is consistent and the
 * store keeps taking turns meanwhile. The backup API copies a few pages per step and starts again from
 * the beginning whenever another connection writes between two steps: under a steady stream of turns it
 * may never finish (unless it copies everything in one step, which is then the same read transaction
 * without the compaction). {@code VACUUM INTO} also writes a compact file (no free pages), holds no write
 * lock, and refuses to write into an existing non-empty file. It does not fsync the copy; this class does.
 *
 * <p>Both operations write a temporary file beside the target first and move it into place once it is
 * complete and checked: a failure leaves no partial target, and a refused call writes nothing there.
 * Stateless and thread-safe; two calls that name the same target race only for who moves last, and
 * without {@code replace} the loser is refused.
 */
public final class SqliteBackup {

    /**
     * What a backup holds, as read from the file itself.
     *
     * @param file          the backup or restored store file
     * @param schemaVersion the store's table layout version ({@code PRAGMA user_version}); a restored
     *                      store older than this build's is upgraded when it is first opened
     * @param sessions      how many sessions (of every tenant, branches included) it holds
     * @param bytes         the file's size
     */
    public record Info(Path file, int schemaVersion, long sessions, long bytes) {
        /** Checks that {@code file} is given. */
        public Info {
            Objects.requireNonNull(file, "file");
        }
    }

    private SqliteBackup() {}

    /**
     * Copies the SQLite store in {@code store} to the new file {@code target}, while the store stays in
     * use: other connections and processes go on reading and writing, and the copy is the store as of
     * one committed transaction. The target's folder must exist.
     *
     * @return what the backup holds
     * @throws StorageException when {@code store} is missing or not a Threadline store, when
     *                          {@code target} already exists (nothing is written), or on an I/O or
     *                          SQLite failure (no target is left behind)
     */
    public static Info backup(Path store, Path target) {
        Path from = absolute(store, "store");
        Path to = absolute(target, "target");
        if (!Files.isRegularFile(from)) {
            throw new StorageException("no sqlite store at " + from + " to back up");
        }
        BackupFiles.refuseExisting(to, "the backup target");
        Path temp = BackupFiles.tempBeside(to);
        try {
            BackupFiles.copyOnline(from, temp);
            Info info = BackupFiles.check(temp, "the backup of " + from);
            BackupFiles.fsync(temp);
            BackupFiles.moveInto(temp, to, false);
            return new Info(to, info.schemaVersion(), info.sessions(), info.bytes());
        } finally {
            BackupFiles.deleteQuietly(temp);
        }
    }

    /**
     * Checks that {@code backup} is an undamaged Threadline SQLite store ({@code PRAGMA integrity_check})
     * of a schema version this build reads. Reads a copy, so the backup itself is never changed.
     *
     * @return what the backup holds
     * @throws StorageException naming the file and what is wrong with it
     */
    public static Info check(Path backup) {
        Path from = absolute(backup, "backup");
        if (!Files.isRegularFile(from)) {
            throw new StorageException("no backup file at " + from);
        }
        Path temp = BackupFiles.tempBeside(from);
        try {
            BackupFiles.copyFile(from, temp);
            Info info = BackupFiles.check(temp, "the backup " + from);
            return new Info(from, info.schemaVersion(), info.sessions(), BackupFiles.size(from));
        } finally {
            BackupFiles.deleteQuietly(temp);
        }
    }

    /**
     * Restores the backup {@code backup} as the store in {@code target}: copies it to a temporary file
     * in the target's folder, checks the copy as {@link #check} does, and moves it into place in one
     * step. An existing target is replaced only when {@code replace} is true, and only when no process
     * has it open (its write-ahead log and shared-memory files go with it). The target's folder must
     * exist. A store of an older schema version is upgraded when it is next opened.
     *
     * @return what the restored store holds
     * @throws StorageException when the backup is missing, damaged, not a Threadline store or of a newer
     *                          schema version; when the target exists and {@code replace} is false, or
     *                          it is in use; or on an I/O failure. The target is then as it was.
     */
    public static Info restore(Path backup, Path target, boolean replace) {
        Path from = absolute(backup, "backup");
        Path to = absolute(target, "target");
        if (!Files.isRegularFile(from)) {
            throw new StorageException("no backup file at " + from);
        }
        if (from.equals(to)) {
            throw new StorageException("the backup " + from + " and the restore target are the same file");
        }
        if (replace) {
            BackupFiles.refuseMissingFolder(to, "the restore target");
        } else {
            BackupFiles.refuseExisting(to, "the restore target");
        }
        Path temp = BackupFiles.tempBeside(to);
        try {
            BackupFiles.copyFile(from, temp);
            Info info = BackupFiles.check(temp, "the backup " + from);
            BackupFiles.fsync(temp);
            if (replace && Files.exists(to)) {
                BackupFiles.refuseInUse(to);
            }
            BackupFiles.moveInto(temp, to, replace);
            return new Info(to, info.schemaVersion(), info.sessions(), info.bytes());
        } finally {
            BackupFiles.deleteQuietly(temp);
        }
    }

    private static Path absolute(Path p, String what) {
        return Objects.requireNonNull(p, what).toAbsolutePath().normalize();
    }
}
