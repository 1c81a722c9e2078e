package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.Resp;
import dev.threadline.store.tck.PruningAcceptance;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.store.tck.TickingClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 24's pruning acceptance on Redis (2,000 events, the latest 100 checkpoints kept), the stored bytes
 * measured as {@code MEMORY USAGE key SAMPLES 0} (exact, every element counted) summed over every key under the
 * store's prefix: both sessions' keys, the tenant's index and the expiry index. Redis frees the trimmed list
 * nodes and hash fields at once; there is no vacuum.
 */
class RedisPruningAcceptanceTest {
    @Test
    void aPrunedSessionResumesForksKeepWorkingAndTheStoreKeepsFewerBytes() {
        try (RedisProcess server = RedisProcess.start(List.of()); RawKeys raw = new RawKeys(server.url())) {
            TickingClock clock = new TickingClock(StoreFixtures.T0);
            RedisStateStore store = RedisStateStore.open(server.url(), RedisStateStore.Options.defaults().withPrefix("prune").withClock(clock));
            PruningAcceptance.Report r = PruningAcceptance.run(store, clock, 2_000, 100, () -> bytes(server, raw, "prune"));
            System.out.println("redis: " + r);
            assertThat(r.bytesAfter()).isLessThan(r.bytesBefore() * 3 / 4); // the base keeps the transcript (ADR 0045)
        }
    }

    /** MEMORY USAGE (every element sampled) summed over the keys under {@code prefix}. */
    private static long bytes(RedisProcess server, RawKeys raw, String prefix) {
        long total = 0;
        for (String key : raw.redis().keys(prefix + ":*")) {
            try {
                String reply = Resp.call(server.port(), "MEMORY", "USAGE", key, "SAMPLES", "0");
                assertThat(reply).as("MEMORY USAGE " + key).startsWith(":");
                total += Long.parseLong(reply.substring(1));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return total;
    }
}
