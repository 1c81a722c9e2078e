package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.Resp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cluster master SIGKILLed and restarted on its directory: calls on its sessions fail within the
 * command timeout with one line, nothing acknowledged is lost, and the same store recovers by itself.
 */
class RedisClusterFaultTest {

    @Test
    void aKilledMasterFailsItsSessionsFastAndTheStoreRecoversWithEverythingAcknowledged() throws IOException {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start();
             RedisStateStore store = RedisStateStore.open(cluster.url(), RedisStateStore.Options.defaults()
                     .withCommandTimeout(Duration.ofSeconds(1)))) {
            RedisProcess victim = cluster.nodes().get(0);
            SessionKey key = null;
            for (int i = 0; key == null; i++) {
                SessionKey k = new SessionKey("acme", "s" + i);
                String slot = Resp.call(victim.port(), "CLUSTER", "KEYSLOT", new Keys("tl").session(k)[Keys.META]);
                if (Long.parseLong(slot.substring(1)) <= 5460) {
                    key = k; // redis-cli gives the first node slots 0..5460
                }
            }
            SessionInfo info = StoreFixtures.root(key.id(), "acme", "u");
            store.create(info, List.of(StoreFixtures.first(info)));
            long epoch = ((LeaseResult.Acquired) store.acquire(key, "w", Duration.ofMinutes(5), null)).lease().epoch();
            long head = 1;
            for (int i = 0; i < 20; i++) {
                head = store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(key.id(), head + 1, 1)));
            }

            victim.kill();
            SessionKey onVictim = key;
            long start = System.nanoTime();
            assertThatThrownBy(() -> store.head(onVictim)).isInstanceOfSatisfying(StorageException.class,
                    e -> assertThat(e.getMessage()).contains("unavailable").doesNotContain("\n"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));

            victim.restart();
            RedisProcess.waitFor(() -> {
                try {
                    store.head(onVictim);
                    return true;
                } catch (StorageException e) {
                    return false; // the cluster or the connection to the node is not back yet
                }
            }, "the store to reach the restarted master");
            assertThat(store.head(key)).isEqualTo(head);
            assertThat(store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(key.id(), head + 1, 1))))
                    .isEqualTo(head + 1);
        }
    }
}
