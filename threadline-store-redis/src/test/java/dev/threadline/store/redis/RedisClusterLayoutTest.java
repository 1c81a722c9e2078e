package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisClusterProcesses;
import dev.threadline.harness.servers.Resp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * On a cluster every key of one session is in one hash slot (so its scripts run there atomically),
 * while different sessions spread over the masters.
 */
class RedisClusterLayoutTest {

    @Test
    void eachSessionIsOneSlotAndSessionsSpreadOverTheMasters() throws IOException {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start();
             RedisStateStore store = RedisStateStore.open(cluster.url(), RedisStateStore.Options.defaults().withPrefix("layout"))) {
            int port = cluster.nodes().get(0).port();
            Keys keys = new Keys("layout");
            Set<String> slots = new HashSet<>();
            Set<Integer> owners = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                SessionInfo info = StoreFixtures.root("s" + i, "acme", "u");
                store.create(info, List.of(StoreFixtures.first(info)));
                SessionKey key = SessionKey.of(info);
                store.acquire(key, "w", Duration.ofSeconds(30), null);
                Set<String> own = new HashSet<>();
                for (String k : keys.session(key)) {
                    own.add(Resp.call(port, "CLUSTER", "KEYSLOT", k));
                }
                assertThat(own).as("slots of %s", key).hasSize(1);
                slots.addAll(own);
                long slot = Long.parseLong(own.iterator().next().substring(1));
                owners.add(slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2);
            }
            assertThat(slots).hasSizeGreaterThan(20);
            assertThat(owners).as("masters holding sessions (by redis-cli's even slot split)").hasSize(3);
            assertThat(store.acquire(new SessionKey("acme", "s0"), "other", Duration.ofSeconds(30), null))
                    .isInstanceOf(LeaseResult.Held.class);
        }
    }
}
