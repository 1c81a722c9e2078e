package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.Lease;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.FaultProxy;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A store whose path to Redis goes silent (a {@link FaultProxy} black hole: the connection stays up, nothing is
 * answered): each kind of call fails within the command timeout (2 s here), one line "unavailable", never
 * hangs, the same instance works again once the path heals (what it sent into the black hole arrives then, and
 * the scripts' checks judge it), and {@code close()} returns while black-holed.
 */
class RedisBlackHoledPathTest {
    private static final Duration COMMAND = Duration.ofSeconds(2);
    /** The command timeout and room for a slow machine. */
    private static final Duration BOUND = COMMAND.plusSeconds(3);

    private static Duration failsWithinBound(String what, Supplier<?> call) {
        long t0 = System.nanoTime();
        assertThatThrownBy(call::get).as(what).isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains("unavailable").doesNotContain("\n"));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).as("until %s failed", what).isLessThan(BOUND);
        return took;
    }

    @Test
    void everyCallThroughABlackHoleEndsWithinTheCommandTimeoutAndTheStoreWorksAgainAfterTheHeal() {
        try (RedisProcess server = RedisProcess.start(List.of());
             FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port())) {
            RedisStateStore store = RedisStateStore.open("redis://127.0.0.1:" + proxy.port(),
                    RedisStateStore.Options.defaults().withCommandTimeout(COMMAND));
            SessionKey key = new SessionKey("t", "cut");
            SessionInfo info = StoreFixtures.root("cut", "t", "u");
            List<StoredEvent> events = new ArrayList<>(List.of(StoreFixtures.first(info)));
            events.addAll(StoreFixtures.messages("cut", 2, 1));
            store.create(info, events);
            Lease lease = ((LeaseResult.Acquired) store.acquire(key, "w", Duration.ofMinutes(5), null)).lease();

            proxy.blackhole();
            List<Duration> took = List.of(
                    failsWithinBound("head", () -> store.head(key)),
                    failsWithinBound("append", () -> store.append(AppendRequest.of(key, 2, lease.epoch(), StoreFixtures.messages("cut", 3, 1)))),
                    failsWithinBound("renew", () -> store.renew(lease, Duration.ofMinutes(5))),
                    failsWithinBound("acquire", () -> store.acquire(new SessionKey("t", "other"), "w", Duration.ofMinutes(5), null)),
                    failsWithinBound("read", () -> store.readOwn(key, 1, 10)),
                    failsWithinBound("lease", () -> store.lease(key)));

            proxy.pass();
            long head = -1;
            for (int i = 0; i < 50 && head < 0; i++) { // bounded: the first calls after the heal may meet the old replies
                try {
                    head = store.head(key);
                } catch (StorageException e) {
                    // once more
                }
            }
            assertThat(head).as("the append sent into the black hole either happened whole or not at all").isIn(2L, 3L);
            assertThat(store.append(AppendRequest.of(key, head, lease.epoch(), StoreFixtures.messages("cut", head + 1, 1))))
                    .isEqualTo(head + 1);

            proxy.blackhole();
            long t0 = System.nanoTime();
            store.close();
            Duration close = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(close).as("close() while black-holed").isLessThan(BOUND);
            System.out.println("redis black-holed path (command timeout 2 s): head, append, renew, acquire, read, lease failed after "
                    + took.stream().map(Duration::toMillis).toList() + " ms; close " + close.toMillis() + " ms");
        }
    }
}
