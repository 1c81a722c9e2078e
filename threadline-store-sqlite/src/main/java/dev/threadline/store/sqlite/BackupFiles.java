package dev.threadline.store.sqlite;

import dev.threadline.core.error.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** The file work of {@link SqliteBackup}: temporary files, the online copy, the checks and the move. Stateless. */
final class BackupFiles {
    /** The files SQLite keeps beside a database: its write-ahead log, shared memory and rollback journal. */
    private static final List<String> SIDE_FILES = List.of("-wal", "-shm", "-journal");

    private BackupFiles() {}

    static void refuseExisting(Path target, String what) {
        if (Files.exists(target)) {
            throw new StorageException(what + " " + target + " already exists; choose a new file (nothing was written)");
        }
        refuseMissingFolder(target, what);
    }

    static void refuseMissingFolder(Path target, String what) {
        if (!Files.isDirectory(target.getParent())) {
            throw new StorageException("the folder " + target.getParent() + " of " + what + " " + target
                    + " does not exist; create it first (nothing was written)");
        }
    }

    /** A new empty file in {@code target}'s folder (so the final move is a rename on one file system). */
    static Path tempBeside(Path target) {
        try {
            return Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        } catch (IOException e) {
            throw new StorageException("cannot write in the folder of " + target + ": " + e, e);
        }
    }

    /**
     * {@code VACUUM INTO} from the store {@code from} into the empty file {@code to}: one read transaction
     * on the store, which in WAL mode neither waits for its writers nor holds them up.
     */
    static void copyOnline(Path from, Path to) {
        try (Connection c = connect(from)) {
            // not query_only: SQLite counts VACUUM INTO as a write and refuses it there, though it only reads the store
            refuseForeign(c, "the store " + from);
            try (PreparedStatement s = c.prepareStatement("VACUUM INTO ?")) {
                s.setString(1, to.toString());
                s.execute();
            }
        } catch (SQLException e) {
            throw failure("the store " + from, e);
        }
    }

    /** Copies a closed file as it is (a backup, to be checked and restored). */
    static void copyFile(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new StorageException("cannot copy " + from + " to " + to + ": " + e, e);
        }
    }

    /**
     * Checks the SQLite file {@code file} (a private copy: opening it may write its side files) is undamaged,
     * a Threadline store, and of a schema version this build reads.
     */
    static SqliteBackup.Info check(Path file, String what) {
        try (Connection c = connect(file)) {
            List<String> problems = integrityProblems(c);
            if (!problems.isEmpty()) {
                throw new StorageException(what + " is damaged (PRAGMA integrity_check: " + String.join("; ", problems) + ")");
            }
            int version = refuseForeign(c, what);
            if (version > Schema.VERSION) {
                throw new StorageException(what + " has schema version " + version + ", newer than the " + Schema.VERSION
                        + " this Threadline reads; restore it with a newer Threadline");
            }
            long sessions = Schema.queryLong(c, "SELECT count(*) FROM sessions");
            return new SqliteBackup.Info(file, version, sessions, size(file));
        } catch (SQLException e) {
            throw failure(what, e);
        } finally {
            deleteSideFiles(file);
        }
    }

    /** The store's layout version; refuses a file that holds no Threadline tables (version 0, or no sessions table). */
    private static int refuseForeign(Connection c, String what) throws SQLException {
        int version = (int) Schema.queryLong(c, "PRAGMA user_version");
        long tables = Schema.queryLong(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('sessions', 'events')");
        if (version == 0 || tables < 2) {
            throw new StorageException(what + " is a SQLite database but not a Threadline store (user_version " + version
                    + ", " + (tables < 2 ? "no sessions and events tables" : "no schema version") + ")");
        }
        return version;
    }

    private static List<String> integrityProblems(Connection c) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check(5)")) {
            while (rs.next()) {
                String row = rs.getString(1);
                if (!"ok".equals(row)) { // a row may hold several lines: one error message is one line
                    for (String line : row.split("\\R")) {
                        if (!line.isBlank() && !line.startsWith("*** in database")) {
                            problems.add(line.strip());
                        }
                    }
                }
            }
        }
        return problems.size() <= 3 ? problems : List.of(problems.get(0), problems.get(1), problems.get(2),
                "and " + (problems.size() - 3) + " more");
    }

    /**
     * Refuses to replace a store another connection has open: takes SQLite's exclusive lock on it
     * without waiting, which fails while any other connection (of any process) has it open in WAL mode.
     * Closing this last connection checkpoints its write-ahead log into the file it is about to replace.
     */
    static void refuseInUse(Path target) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(0);
        try (Connection c = config.createConnection("jdbc:sqlite:" + target)) {
            exec(c, "PRAGMA locking_mode = EXCLUSIVE");
            exec(c, "BEGIN EXCLUSIVE");
            exec(c, "COMMIT");
        } catch (SQLiteException e) {
            SQLiteErrorCode code = e.getResultCode();
            if (code == SQLiteErrorCode.SQLITE_BUSY || code == SQLiteErrorCode.SQLITE_LOCKED
                    || code.name().startsWith("SQLITE_BUSY") || code.name().startsWith("SQLITE_LOCKED")) {
                throw new StorageException("the restore target " + target + " is in use by another connection or"
                        + " process; stop them first (nothing was changed)", e);
            }
            // not a database, or damaged: nothing can be using it as a store, so it may be replaced
        } catch (SQLException e) {
            // as above
        }
    }

    /**
     * Moves the complete, synced {@code temp} to {@code target} in one rename (same folder). Without
     * {@code replace} an existing target is refused; with it the old store's side files are removed
     * first, so that its write-ahead log is never read as the new file's.
     */
    static void moveInto(Path temp, Path target, boolean replace) {
        try {
            if (replace) {
                deleteSideFiles(target);
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                Files.move(temp, target); // refuses an existing target, then renames
            }
        } catch (FileAlreadyExistsException e) {
            throw new StorageException(target + " appeared while it was written; choose a new file (nothing was written)", e);
        } catch (IOException e) {
            throw new StorageException("cannot move " + temp + " to " + target + ": " + e, e);
        }
        fsyncFolder(target.getParent());
    }

    static void fsync(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        } catch (IOException e) {
            throw new StorageException("cannot sync " + file + " to disk: " + e, e);
        }
    }

    /** Makes the rename itself durable where the platform lets a folder be synced (Linux does, Windows does not). */
    private static void fsyncFolder(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // not supported here; the file's own content is synced
        }
    }

    static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new StorageException("cannot read the size of " + p + ": " + e.getMessage(), e);
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temporary file left behind is harmless: its name starts with a dot and ends in .tmp
        }
        deleteSideFiles(file);
    }

    private static void deleteSideFiles(Path file) {
        for (String suffix : SIDE_FILES) {
            try {
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
            } catch (IOException e) {
                // as above
            }
        }
    }

    private static Connection connect(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(10_000);
        return config.createConnection("jdbc:sqlite:" + file);
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static StorageException failure(String what, SQLException e) {
        if (e instanceof SQLiteException s && (s.getResultCode() == SQLiteErrorCode.SQLITE_NOTADB)) {
            return new StorageException(what + " is not a SQLite database", e);
        }
        if (e instanceof SQLiteException s && s.getResultCode().name().startsWith("SQLITE_CORRUPT")) {
            return new StorageException(what + " is damaged: " + e.getMessage(), e);
        }
        return new StorageException("cannot read " + what + ": " + e.getMessage(), e);
    }
}
