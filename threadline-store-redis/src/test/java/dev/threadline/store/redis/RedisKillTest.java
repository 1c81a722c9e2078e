package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server killed with SIGKILL while a writer appends, three times over: with {@code appendfsync always} every append
 * the store acknowledged is there after the restart on the same directory, the journal has no gap,
 * and the same store instance recovers without being reopened. While the server is down, calls fail
 * fast with one line saying the store is unavailable.
 */
class RedisKillTest {
    private static final int CYCLES = 3;
    private RedisProcess server;

    @BeforeEach
    void start() {
        server = RedisProcess.start(List.of());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aKilledServerLosesNoAcknowledgedAppendAndTheStoreRecovers() throws Exception {
        try (RedisStateStore store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults()
                .withCommandTimeout(Duration.ofSeconds(2)))) {
            SessionInfo info = StoreFixtures.root("s");
            store.create(info, List.of(StoreFixtures.first(info)));
            SessionKey key = SessionKey.of(info);
            long epoch = ((LeaseResult.Acquired) store.acquire(key, "w1", Duration.ofMinutes(5), null)).lease().epoch();

            long acked = 1;
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                acked = writeUntilKilled(store, key, epoch, acked);
            }
            long stale = acked - 1;
            assertThatThrownBy(() -> store.append(AppendRequest.of(key, stale, epoch, StoreFixtures.messages("s", stale + 1, 1))))
                    .isInstanceOf(VersionConflictException.class);
            long head = store.head(key);
            assertThat(store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("s", head + 1, 1)))).isEqualTo(head + 1);
        }
    }

    /**
     * Appends from another thread until the server is SIGKILLed, restarts it, and checks that every
     * acknowledged append is there (at most the one in flight more) with no gap. Returns the head.
     */
    private long writeUntilKilled(RedisStateStore store, SessionKey key, long epoch, long from) throws Exception {
        AtomicLong acknowledged = new AtomicLong(from);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch someWritten = new CountDownLatch(50);
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            while (!stop.get()) {
                long head = acknowledged.get();
                try {
                    acknowledged.set(store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("s", head + 1, 1))));
                    someWritten.countDown();
                } catch (StorageException e) {
                    failures.add(e.getMessage());
                    return; // the server is gone: this append's outcome is unknown
                }
            }
        });
        assertThat(someWritten.await(30, TimeUnit.SECONDS)).isTrue();
        server.kill();
        writer.get(30, TimeUnit.SECONDS);
        long acked = acknowledged.get();

        long start = System.nanoTime();
        assertThatThrownBy(() -> store.head(key)).isInstanceOfSatisfying(StorageException.class,
                e -> assertThat(e.getMessage()).contains("unavailable").doesNotContain("\n"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        assertThat(failures).singleElement().asString().contains("unavailable").doesNotContain("\n");

        server.restart();
        RedisProcess.waitFor(() -> {
            try {
                store.head(key);
                return true;
            } catch (StorageException e) {
                return false; // reconnecting
            }
        }, "the store to reconnect");
        long head = store.head(key);
        assertThat(head).as("every acknowledged append survived, at most the unacknowledged one more").isBetween(acked, acked + 1);
        List<StoredEvent> journal = store.readOwn(key, 1, head);
        for (int i = 0; i < journal.size(); i++) {
            assertThat(journal.get(i).seq()).isEqualTo(i + 1L);
        }
        assertThat(journal).hasSize((int) head);
        return head;
    }
}
