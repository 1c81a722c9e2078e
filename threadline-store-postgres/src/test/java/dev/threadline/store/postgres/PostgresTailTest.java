package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Following a session written by another store instance (another process): awaitHead returns once
 * the other's append commits, woken by its notification, or by polling when notifications are off.
 */
class PostgresTailTest {

    @ParameterizedTest(name = "notifications={0}")
    @ValueSource(booleans = {true, false})
    void awaitHeadSeesAnotherStoresAppend(boolean notifications) throws Exception {
        String schema = PgStores.freshSchema("tail");
        PostgresStateStore.Options options = PostgresStateStore.Options.defaults().withSchema(schema)
                .withNotifications(notifications);
        try (PostgresStateStore writer = PostgresStateStore.open(PgStores.url(), options);
             PostgresStateStore follower = PostgresStateStore.open(PgStores.url(), options)) {
            SessionKey key = new SessionKey("t", "followed");
            long epoch = PgStores.leasedSession(writer, key, 1, "w");
            for (long head = 1; head < 4; head++) {
                long after = head;
                CountDownLatch waiting = new CountDownLatch(1);
                CompletableFuture<Long> seen = CompletableFuture.supplyAsync(() -> {
                    waiting.countDown();
                    try {
                        return follower.awaitHead(key, after, Duration.ofMinutes(2));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
                writer.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("followed", head + 1, 1)));
                assertThat(seen.get(30, TimeUnit.SECONDS)).isEqualTo(head + 1);
            }
        }
    }
}
