package dev.threadline.store.sqlite;

import static dev.threadline.store.tck.StoreFixtures.first;
import static dev.threadline.store.tck.StoreFixtures.root;
import static dev.threadline.store.tck.StoreFixtures.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;

/**
 * The writer thread batches the writes queued while it was busy into one transaction, and a write that
 * fails inside a batch fails alone: its own changes are rolled back to its savepoint, the others commit.
 * That holds for the store's own checks too: an append refused for a stale lease epoch fails alone.
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

    @Test
    void aStaleEpochInASharedBatchFailsAloneAndWritesNothing() throws Exception {
        Path file = dir.resolve("fenced.db");
        SessionKey[] keys = {key("s1"), key("s2"), key("s3")};
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            for (SessionKey k : keys) {
                store.create(root(k.id()), List.of(first(root(k.id()))));
                store.acquire(k, "w", Duration.ofMinutes(1), null);
            }
            store.acquire(keys[1], "usurper", Duration.ofMinutes(1), "w"); // s2 moves on to epoch 2
        }
        try (Connections db = new Connections(file.toAbsolutePath(), new SQLiteConfig(), GroupCommit.MAX_BATCH);
             ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<Object> holder = CompletableFuture.supplyAsync(() -> db.write(() -> "hold", c -> {
                running.countDown();
                await(release);
                return null;
            }), writers);
            running.await(); // the holder leads and is inside its transaction: the three appends queue up
            List<CompletableFuture<Long>> appends = new ArrayList<>();
            for (SessionKey k : keys) {
                AppendRequest r = AppendRequest.of(k, 1, 1, List.of(user(k.id(), 2, "hi")));
                appends.add(CompletableFuture.supplyAsync(() -> db.write(() -> "append to " + k, JournalWrites.append(r, Clock.systemUTC(), dev.threadline.store.jdbc.Sealing.PLAIN)), writers));
            }
            while (db.queued() < 3) {
                Thread.onSpinWait();
            }
            release.countDown();

            holder.join();
            assertThat(appends.get(0).join()).isEqualTo(2);
            assertThatThrownBy(() -> appends.get(1).join()).hasCauseInstanceOf(LeaseLostException.class);
            assertThat(appends.get(2).join()).isEqualTo(2);
            assertThat(db.commits()).as("the three appends shared one commit").isEqualTo(2);
        }
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            assertThat(store.head(keys[0])).isEqualTo(2);
            assertThat(store.head(keys[1])).isEqualTo(1);
            assertThat(store.readOwn(keys[1], 1, 10)).hasSize(1);
            assertThat(store.head(keys[2])).isEqualTo(2);
        }
    }

    private static SessionKey key(String id) {
        return new SessionKey("default", id);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
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
