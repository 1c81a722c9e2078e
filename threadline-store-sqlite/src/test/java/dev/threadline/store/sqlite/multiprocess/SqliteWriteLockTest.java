package dev.threadline.store.sqlite.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SqliteWriteLock} sees a write transaction's lock while it is open, and only then. */
class SqliteWriteLockTest {
    @TempDir
    Path dir;

    @Test
    void aWriteTransactionHoldsTheLockUntilItEnds() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/locks")), "needs Linux's /proc/locks");
        Path db = dir.resolve("lock.db");
        SqliteStateStore.open(db).close(); // a store's file, in WAL mode
        long self = ProcessHandle.current().pid();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("SELECT count(*) FROM sqlite_master");
            assertThat(SqliteWriteLock.heldBy(self, db)).as("a reader holds no write lock").isFalse();

            st.execute("BEGIN IMMEDIATE");
            assertThat(SqliteWriteLock.heldBy(self, db)).as("inside a write transaction").isTrue();
            assertThat(SqliteWriteLock.heldBy(ProcessHandle.current().parent().orElseThrow().pid(), db))
                    .as("another process").isFalse();

            st.execute("COMMIT");
            assertThat(SqliteWriteLock.heldBy(self, db)).as("after the commit").isFalse();
        }
    }
}
