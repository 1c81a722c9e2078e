package dev.threadline.store.postgres;

import dev.threadline.harness.servers.PgServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server that goes away: calls fail fast with one "store unavailable:" line (never a hang), an
 * append in flight writes nothing half, and the same store instance works again once the server is
 * back. Runs its own server, since it stops it.
 */
class PostgresServerFaultTest {
    private static final Duration CONNECT = Duration.ofSeconds(1);
    private static final long FAST_MS = 15_000; // connect timeout plus the pool's validation, with room for a slow machine
    private static PgServer server;

    @BeforeAll
    static void startOwnServer() {
        server = PgServer.create();
        server.createDatabase("faults");
    }

    @AfterAll
    static void stopOwnServer() {
        if (server != null) {
            server.close();
        }
    }

    private static PostgresStateStore.Options options() {
        return PostgresStateStore.Options.defaults().withConnectTimeout(CONNECT).withQueryTimeout(Duration.ofSeconds(5));
    }

    private static void assertUnavailable(Runnable call) {
        long start = System.nanoTime();
        assertThatThrownBy(call::run).isInstanceOf(StorageException.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).startsWith("store unavailable: postgresql://").doesNotContain("\n");
                    assertThat(e.getMessage()).contains("127.0.0.1:" + server.port());
                });
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the call failed").isLessThan(FAST_MS);
    }

    @Test
    void aStoppedServerFailsCallsFastAndARefusedAppendWritesNothing() {
        String url = server.url("faults");
        try (PostgresStateStore store = PostgresStateStore.open(url, options())) {
            SessionKey key = new SessionKey("t", "s");
            long epoch = PgStores.leasedSession(store, key, 2, "w");

            server.stop();
            assertUnavailable(() -> store.head(key));
            assertUnavailable(() -> store.append(AppendRequest.of(key, 2, epoch, StoreFixtures.messages("s", 3, 1))));
            assertUnavailable(() -> PostgresStateStore.open(url, options()));
            assertUnavailable(() -> {
                try {
                    store.awaitHead(key, 2, Duration.ofSeconds(30));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        server.start();

        try (PostgresStateStore store = PostgresStateStore.open(url, options())) {
            SessionKey key = new SessionKey("t", "s");
            assertThat(store.head(key)).as("the refused append wrote nothing").isEqualTo(2);
        }
    }

    @Test
    void theSameStoreInstanceWorksAgainAfterARestart() {
        String url = server.url("faults");
        try (PostgresStateStore store = PostgresStateStore.open(url, options())) {
            SessionKey key = new SessionKey("t", "again");
            long epoch = PgStores.leasedSession(store, key, 2, "w");

            server.stop();
            assertUnavailable(() -> store.head(key));
            server.start();

            assertThat(store.head(key)).isEqualTo(2);
            assertThat(store.append(AppendRequest.of(key, 2, epoch, StoreFixtures.messages("again", 3, 1)))).isEqualTo(3);
            assertThat(store.readOwn(key, 1, 10)).hasSize(3);
        }
    }

    @Test
    void aServerThatStopsAnsweringFailsCallsAfterTheQueryTimeoutNotNever() {
        String url = server.url("faults");
        try (PostgresStateStore store = PostgresStateStore.open(url, options().withQueryTimeout(Duration.ofSeconds(2)))) {
            SessionKey key = new SessionKey("t", "frozen");
            long epoch = PgStores.leasedSession(store, key, 2, "w");

            server.signalAll("STOP"); // connections stay open, nothing answers
            try {
                assertUnavailable(() -> store.head(key));
                assertUnavailable(() -> store.append(AppendRequest.of(key, 2, epoch, StoreFixtures.messages("frozen", 3, 1))));
            } finally {
                server.signalAll("CONT");
            }

            long head = store.head(key);
            assertThat(head).as("the append either happened whole or not at all").isIn(2L, 3L);
            assertThat(store.readOwn(key, 1, 10)).hasSize((int) head);
            assertThat(store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("frozen", head + 1, 1))))
                    .isEqualTo(head + 1);
        }
    }

    @Test
    void aServerThatWasNeverThereIsOneLineToo() {
        assertThatThrownBy(() -> PostgresStateStore.open("postgresql://nobody@127.0.0.1:1/none", options()))
                .isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(e.getMessage()).startsWith("store unavailable: postgresql://nobody@127.0.0.1:1/none")
                        .doesNotContain("\n"));
    }
}
