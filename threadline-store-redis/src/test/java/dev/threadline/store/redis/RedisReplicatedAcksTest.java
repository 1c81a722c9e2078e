package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.StorageException;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStores;
import dev.threadline.harness.servers.RedisProcess;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Replicated acknowledgements ({@code ?replicas=N&replicaTimeout=D}, ADR 0047) on a real master and
 * replica: the URL's values are checked, {@code durability()} says which mode runs, and a step whose
 * replica stalls (SIGSTOP: still connected, acknowledging nothing) fails with an unknown-outcome
 * StorageException while the master has it; with the replica back, steps are acknowledged again.
 */
class RedisReplicatedAcksTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "?replicas=-1&replicaTimeout=2s | replicas | '-1'",
        "?replicas=x&replicaTimeout=2s | replicas | 'x'",
        "?replicas=1&replicaTimeout=abc | replicaTimeout | 'abc'",
        "?replicas=1&replicaTimeout=0s | replicaTimeout | '0s'",
        "?replicas=1&replicaTimeout=2 | replicaTimeout | '2'",
        "?replicas=1 | replicaTimeout | required",
        "?replicas=1&replicaTimeout=30s | replicaTimeout | shorter than the command timeout"})
    void badValuesAreRefusedNamingTheParameter(String query, String field, String said) {
        for (String base : List.of("redis://127.0.0.1:1", "redis-cluster://127.0.0.1:1,127.0.0.1:2")) {
            assertThatThrownBy(() -> RedisStateStore.open(base + query, null))
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                        assertThat(e.field()).isEqualTo(field);
                        assertThat(e.getMessage()).contains(said);
                    });
        }
    }

    @Test
    void durabilitySaysWhichModeRunsAndAStalledReplicaFailsTheStepWithAnUnknownOutcome() {
        try (RedisProcess master = RedisProcess.start(List.of());
             RedisProcess replica = RedisProcess.replicaOf(master, List.of())) {
            try (var plain = StateStores.open(master.url())) {
                assertThat(plain.durability()).contains("acknowledged by the master alone")
                        .contains("a failover may lose the newest acknowledged steps");
            }
            String url = master.url() + "?replicas=1&replicaTimeout=1s"; // long enough for a loaded machine
            try (var viaProvider = StateStores.open(url);
                 RedisStateStore store = RedisStateStore.open(url, RedisStateStore.Options.defaults())) {
                assertThat(viaProvider.durability()).isEqualTo(store.durability());
                assertThat(store.durability()).contains("AOF appendfsync always")
                        .contains("steps acknowledged after 1 replica confirms (WAIT, timeout 1s;")
                        .doesNotContain("\n");

                SessionKey key = new SessionKey("acme", "acked");
                SessionInfo info = StoreFixtures.root(key.id(), "acme", "u");
                store.create(info, List.of(StoreFixtures.first(info)));
                long epoch = ((LeaseResult.Acquired) store.acquire(key, "w", Duration.ofMinutes(5), null)).lease().epoch();
                long head = store.append(AppendRequest.of(key, 1, epoch, StoreFixtures.messages(key.id(), 2, 3)));
                assertThat(head).isEqualTo(4);

                replica.pause();
                try {
                    long h = head;
                    long start = System.nanoTime();
                    assertThatThrownBy(() -> store.append(AppendRequest.of(key, h, epoch, StoreFixtures.messages(key.id(), h + 1, 2))))
                            .isInstanceOfSatisfying(StorageException.class, e -> assertThat(e.getMessage())
                                    .contains("append to session 'acked' after seq 4")
                                    .contains("only 0 of 1 replicas confirmed it within 1s")
                                    .contains("outcome is unknown").doesNotContain("\n"));
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(950));
                    assertThat(store.head(key)).as("the step is on the master: the outcome is unknown, not failed").isEqualTo(6);
                } finally {
                    replica.resume();
                }
                assertThat(store.append(AppendRequest.of(key, 6, epoch, StoreFixtures.messages(key.id(), 7, 1)))).isEqualTo(7);
                try (RedisStateStore onReplica = RedisStateStore.open(replica.url(), null)) {
                    assertThat(onReplica.head(key)).as("acknowledged means the replica has it").isEqualTo(7);
                    assertThat(onReplica.readOwn(key, 1, 7)).hasSize(7);
                }
            }
        }
    }
}
