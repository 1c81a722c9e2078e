package dev.threadline.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Two processes on one database: a child JVM holds a session's lease and appends; once its lease has
 * expired, this process takes it over (epoch + 1) and appends, and the child's next append is
 * refused with the new epoch, so the journal never forks. Waits are bounded polls, never sleeps.
 */
class PostgresTwoProcessesTest {
    private static final Duration CHILD_TTL = Duration.ofSeconds(10); // 3 s ran out under load before the parent looked

    @Test
    void aProcessWhoseLeaseWasTakenOverCanNoLongerAppend() throws Exception {
        String schema = PgStores.freshSchema("two");
        String url = PgStores.url();
        SessionKey key = new SessionKey("t", "shared");
        try (PostgresStateStore store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema))) {
            store.create(StoreFixtures.root("shared", "t", "u"), List.of(StoreFixtures.first(StoreFixtures.root("shared", "t", "u"))));
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), PgChild.class.getName(), url, schema, key.id(),
                    Long.toString(CHILD_TTL.toMillis()))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                 PrintWriter in = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8)) {
                assertThat(line(out)).isEqualTo("LEASED 1");
                in.println("APPEND");
                assertThat(line(out)).isEqualTo("OK 2");

                assertThat(store.acquire(key, "parent", Duration.ofMinutes(1), null))
                        .as("the child's lease is live").isInstanceOf(LeaseResult.Held.class);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                LeaseResult taken;
                do {                                   // bounded poll until the child's ttl has passed
                    assertThat(System.nanoTime()).as("lease taken over within 60 s").isLessThan(deadline);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                    taken = store.acquire(key, "parent", Duration.ofMinutes(1), null);
                } while (!(taken instanceof LeaseResult.Acquired));
                long epoch = ((LeaseResult.Acquired) taken).lease().epoch();
                assertThat(epoch).isEqualTo(2);
                assertThat(store.append(AppendRequest.of(key, 2, epoch, StoreFixtures.messages("shared", 3, 1)))).isEqualTo(3);

                in.println("APPEND");
                assertThat(line(out)).isEqualTo("LEASE_LOST 2");
            } finally {
                child.getOutputStream().close();
                if (!child.waitFor(30, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
            }
            List<StoredEvent> journal = store.readOwn(key, 1, 100);
            assertThat(journal).extracting(StoredEvent::seq).containsExactly(1L, 2L, 3L);
            assertThat(store.head(key)).isEqualTo(3);
        }
    }

    /** The child's next line, waited for at most 60 s. */
    private static String line(BufferedReader out) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(60, TimeUnit.SECONDS);
    }
}
