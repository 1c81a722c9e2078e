package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.StorageException;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.harness.servers.FaultProxy;
import dev.threadline.harness.servers.PgServer;
import dev.threadline.store.tck.StoreFixtures;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A store whose path to the server goes silent (a {@link FaultProxy} black hole: connections stay open,
 * nothing is answered, new ones are accepted and never served), as a network partition does: every kind of
 * call ends within the store's timeouts, never hangs, including a follower's wait on the head (its
 * listener's connection is silent too) and {@code close()}; and the same instance works again once the path
 * heals. Query timeout 2 s, connect timeout 1 s, pool wait 5 s. (The follower and the read after the heal run on
 * threads of their own: on the common pool, one thread on a 2-core machine, the read could queue behind the
 * follower's wait of up to 60 s.)
 */
class PostgresBlackHoledPathTest {
    /** The query timeout, a connect timeout and the pool's validation, with room for a slow machine. */
    private static final Duration BOUND = Duration.ofSeconds(12);

    private static PostgresStateStore.Options options() {
        return PostgresStateStore.Options.defaults().withConnectTimeout(Duration.ofSeconds(1)).withQueryTimeout(Duration.ofSeconds(2))
                .withPoolWait(Duration.ofSeconds(5));
    }

    /** The stacks of this JVM's threads that are inside the store or the driver, for a call that did not end. */
    private static String threads() {
        StringBuilder s = new StringBuilder();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            if (java.util.Arrays.stream(stack).anyMatch(f -> f.getClassName().startsWith("dev.threadline.store")
                    || f.getClassName().startsWith("org.postgresql") || f.getClassName().startsWith("com.zaxxer"))) {
                s.append(t.getName()).append(" ").append(t.getState()).append('\n');
                java.util.Arrays.stream(stack).limit(40).forEach(f -> s.append("    at ").append(f).append('\n'));
            }
        });
        return s.toString();
    }

    private static Duration timed(Runnable call) {
        long t0 = System.nanoTime();
        call.run();
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    private static Duration assertUnavailableWithinBound(Runnable call) {
        Duration took = timed(() -> assertThatThrownBy(call::run).isInstanceOf(StorageException.class)
                .satisfies(e -> assertThat(e.getMessage()).startsWith("store unavailable: postgresql://").doesNotContain("\n")));
        assertThat(took).as("until the call failed").isLessThan(BOUND);
        return took;
    }

    @Test
    void everyCallThroughABlackHoleEndsWithinTheTimeoutsAndTheStoreWorksAgainAfterTheHeal() throws Exception {
        String db = "blackhole_" + ProcessHandle.current().pid();
        PgServer.shared().createDatabase(db);
        try (FaultProxy proxy = FaultProxy.start("127.0.0.1", PgServer.shared().port())) {
            String url = "postgresql://" + PgServer.USER + "@127.0.0.1:" + proxy.port() + "/" + db;
            PostgresStateStore store = PostgresStateStore.open(url, options());
            SessionKey key = new SessionKey("t", "cut");
            long epoch = PgStores.leasedSession(store, key, 2, "w");
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
            CompletableFuture<Long> follower = CompletableFuture.supplyAsync(() -> {
                try {
                    return store.awaitHead(key, 2, Duration.ofSeconds(60)); // the listener connects
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, threads);

            proxy.blackhole();
            Duration read = assertUnavailableWithinBound(() -> store.head(key));
            Duration append = assertUnavailableWithinBound(() -> store.append(AppendRequest.of(key, 2, epoch, StoreFixtures.messages("cut", 3, 1))));
            Duration next = assertUnavailableWithinBound(() -> store.readOwn(key, 1, 10));
            Duration waited = timed(() -> {
                try {
                    store.awaitHead(key, 2, Duration.ofSeconds(3));
                } catch (StorageException e) {
                    // failing is as good as returning: it did not hang
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(waited).as("a wait of 3 s on the head through the black hole").isLessThan(BOUND.plusSeconds(3));

            proxy.pass();
            List<String> attempts = new java.util.concurrent.CopyOnWriteArrayList<>();
            long healed = System.nanoTime();
            long head = CompletableFuture.supplyAsync(() -> {
                // the same instance, after the heal: while one call probes the server, the others fail at once
                // ("could not be reached a moment ago"), so poll, bounded, until the probe has found it back
                long deadline = System.nanoTime() + BOUND.toNanos();
                while (true) {
                    try {
                        return store.head(key);
                    } catch (StorageException e) {
                        attempts.add("+" + (System.nanoTime() - healed) / 1_000_000 + " ms " + e.getMessage());
                        if (System.nanoTime() - deadline > 0) {
                            throw e;
                        }
                        java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L); // a bounded poll
                    }
                }
            }, threads).orTimeout(BOUND.toSeconds() * 2, TimeUnit.SECONDS).exceptionally(e -> {
                throw new AssertionError("the store did not answer after the heal; its " + attempts.size() + " attempts: " + attempts + "\n" + threads(), e);
            }).join();
            Duration back = Duration.ofNanos(System.nanoTime() - healed);
            assertThat(head).as("the append cut off either happened whole or not at all").isIn(2L, 3L);
            assertThat(store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages("cut", head + 1, 1)))).isEqualTo(head + 1);
            // the follower waiting through the cut either failed "store unavailable" (its re-read of the head met the
            // black hole) or saw the head move: it did not hang
            assertThat(follower.handle((h, e) -> e == null ? "head " + h : e.getCause().getMessage())
                    .get(BOUND.toSeconds(), TimeUnit.SECONDS)).satisfiesAnyOf(
                            r -> assertThat(r).startsWith("store unavailable: postgresql://"),
                            r -> assertThat(r).isIn("head 3", "head 4"));

            proxy.blackhole();
            Duration close = timed(store::close);
            threads.shutdownNow();
            assertThat(close).as("close() with every connection black-holed").isLessThan(BOUND);
            System.out.printf("black-holed path (query timeout 2 s, connect 1 s): head failed after %d ms, append %d ms,"
                            + " the next read %d ms, a 3 s wait on the head ended after %d ms, close %d ms; after the heal the head was read"
                            + " in %d ms (%d calls failed before, the probe under way)%n", read.toMillis(), append.toMillis(), next.toMillis(), waited.toMillis(),
                    close.toMillis(), back.toMillis(), attempts.size());
        }
    }
}
