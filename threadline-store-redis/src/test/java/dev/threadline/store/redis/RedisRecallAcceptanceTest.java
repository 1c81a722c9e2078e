package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.RecallAcceptance;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 38's acceptance on Redis: after 2,000 turns and many compactions, recall finds turn 3's door
 * code first. Redis keeps no index: the store's default search reads the ranges and ranks them by BM25
 * in process, linear in the session's length.
 */
class RedisRecallAcceptanceTest {
    @Test
    void recallFindsTheDoorCodeFirstAfter2000Turns() {
        try (RedisProcess server = RedisProcess.start(List.of())) {
            TickingClock clock = new TickingClock(StoreFixtures.T0);
            RedisStateStore store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix("recall").withClock(clock));
            assertThat(RecallAcceptance.run(store, clock, 2_000)).contains("4712");
        }
    }
}
