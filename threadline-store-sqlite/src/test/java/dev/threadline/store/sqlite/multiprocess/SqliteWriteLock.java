package dev.threadline.store.sqlite.multiprocess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process holds the write lock of a SQLite database in WAL mode, read from Linux's
 * {@code /proc/locks}: SQLite's unix VFS takes a POSIX lock on byte 120 of the {@code -shm} file
 * (WAL_WRITE_LOCK) for the whole of a write transaction. A process stopped while it holds that lock
 * blocks every writer of the file, in every process, until it resumes or dies: no lease can be taken
 * over meanwhile, because taking one is a write.
 */
final class SqliteWriteLock {
    private static final long WAL_WRITE_LOCK_OFFSET = 120;

    private SqliteWriteLock() {}

    /** Whether {@code pid} holds the write lock of {@code db}; false where {@code /proc/locks} cannot tell. */
    static boolean heldBy(long pid, Path db) {
        Path shm = db.resolveSibling(db.getFileName() + "-shm");
        Path locks = Path.of("/proc/locks");
        try {
            if (!Files.exists(shm) || !Files.isReadable(locks)) {
                return false;
            }
            long inode = ((Number) Files.getAttribute(shm, "unix:ino")).longValue();
            for (String line : Files.readAllLines(locks)) {
                // e.g. "2: POSIX  ADVISORY  WRITE 13403 fe:00:2146403 120 120"
                String[] f = line.trim().split("\\s+");
                if (f.length >= 8 && f[1].equals("POSIX") && f[3].equals("WRITE") && f[4].equals(Long.toString(pid))
                        && f[5].endsWith(":" + inode) && Long.parseLong(f[6]) <= WAL_WRITE_LOCK_OFFSET
                        && (f[7].equals("EOF") || Long.parseLong(f[7]) >= WAL_WRITE_LOCK_OFFSET)) {
                    return true;
                }
            }
            return false;
        } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
            return false;
        }
    }
}
