package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.StorageException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer thread batches the writes queued while it was busy into one transaction, and a write that
 * fails inside a batch fails alone: its own changes are rolled back to its savepoint, the others commit.
 */
class GroupCommitTest {
    @TempDir
    Path dir;

    @Test
    void writesQueuedDuringACommitShareTheNextOneAndAFailureFailsOnlyItsOwnWrite() throws Exception {
        Path file = dir.resolve("g.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            Connections.exec(c, "CREATE TABLE t (k TEXT PRIMARY KEY)");
            GroupCommit gc = new GroupCommit(c, GroupCommit.MAX_BATCH, (what, e) -> new StorageException(what, e));
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Integer> first = write(gc, "write", conn -> {
                running.countDown();
                release.await();
                return insert(conn, "a");
            });
            running.await(); // the first writer leads and is inside its transaction: the next three queue up
            CompletableFuture<Integer> second = write(gc, "write", conn -> insert(conn, "b"));
            CompletableFuture<Integer> third = write(gc, "third", conn -> {
                insert(conn, "c");          // written, then undone with its savepoint
                return insert(conn, "b");   // duplicate key: this write fails
            });
            CompletableFuture<Integer> fourth = write(gc, "write", conn -> insert(conn, "d"));
            while (gc.queued() < 3) {
                Thread.onSpinWait(); // until all three writers have queued (each on its own thread)
            }
            release.countDown();

            assertThat(first.join()).isEqualTo(1);
            assertThat(second.join()).isEqualTo(1);
            assertThatThrownBy(third::join).hasCauseInstanceOf(StorageException.class).hasMessageContaining("third");
            assertThat(fourth.join()).isEqualTo(1);
            assertThat(gc.commits()).as("the three queued writes shared one commit").isEqualTo(2);
            try (var rs = c.createStatement().executeQuery("SELECT group_concat(k, '') FROM (SELECT k FROM t ORDER BY k)")) {
                assertThat(rs.getString(1)).isEqualTo("abd");
            }
        }
    }

    private interface Body {
        Integer run(Connection c) throws Exception;
    }

    /** Queues a write from a new thread, which then waits for it as a store's caller does. */
    private static CompletableFuture<Integer> write(GroupCommit gc, String name, Body body) {
        GroupCommit.Request<Integer> request = GroupCommit.Request.of(() -> name, conn -> {
            try {
                return body.run(conn);
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, true);
        Thread.ofVirtual().start(() -> {
            gc.enqueue(request);
            gc.await(request);
        });
        return request.done();
    }

    private static int insert(Connection c, String k) throws SQLException {
        try (var ps = c.prepareStatement("INSERT INTO t (k) VALUES (?)")) {
            ps.setString(1, k);
            return ps.executeUpdate();
        }
    }
}
