package dev.threadline.store.postgres;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import dev.threadline.harness.servers.PgServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (the name matches none of surefire's patterns): a measurement of the notifier's
 * modes on a durable server of its own, 256 sessions appending at once with a follower in another store
 * on each; prints steps/s, the follower's lag behind each append's return, and the notifier's counts.
 * {@code ./test -q -pl threadline-store-postgres -am -Dtest=NotifyModesHarness -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dsessions=N -Dsteps=N -Drounds=N}); output in target/surefire-reports/*NotifyModesHarness-output.txt.
 */
class NotifyModesHarness {
    @Test
    void measure() throws Exception {
        try (PgServer server = PgServer.create(List.of("fsync=on", "full_page_writes=on", "synchronous_commit=on",
                "autovacuum=off", "checkpoint_timeout=30min", "max_wal_size=8GB"))) {
            server.createDatabase("m");
            String url = server.url("m");
            int sessions = Integer.getInteger("sessions", 256);
            int steps = Integer.getInteger("steps", 16);
            List<String> modes = new ArrayList<>(List.of("packed", "per-key", "off"));
            run(url, "packed", sessions, steps, 99); // warm-up
            for (int round = 0; round < Integer.getInteger("rounds", 6); round++) {
                for (String mode : modes) {
                    run(url, mode, sessions, steps, round);
                }
                java.util.Collections.rotate(modes, 1);
            }
        }
    }

    private void run(String url, String mode, int sessions, int steps, int round) throws Exception {
        String schema = "m_" + mode.replace("-", "") + "_" + round;
        PostgresStateStore.Options o = PostgresStateStore.Options.defaults().withSchema(schema)
                .withPoolWait(Duration.ofSeconds(60)).withNotifications(!mode.equals("off"));
        try (PostgresStateStore writer = PostgresStateStore.open(url, o, HeadListener.RECHECK_MS, mode.equals("packed"));
             PostgresStateStore follower = PostgresStateStore.open(url, o)) {
            List<SessionKey> keys = new ArrayList<>();
            long[] epochs = new long[sessions];
            for (int i = 0; i < sessions; i++) {
                SessionKey k = new SessionKey("t", "s" + i);
                keys.add(k);
                epochs[i] = PgStores.leasedSession(writer, k, 1, "w");
            }
            ConcurrentHashMap<String, Long> committedAt = new ConcurrentHashMap<>();
            long[] lags = new long[sessions * steps];
            AtomicLong lagCount = new AtomicLong();
            List<Thread> followers = new ArrayList<>();
            for (SessionKey k : keys) {
                followers.add(Thread.ofVirtual().start(() -> {
                    long seen = 1;
                    try {
                        while (seen < 1 + steps) {
                            long h = follower.awaitHead(k, seen, Duration.ofMinutes(5));
                            long now = System.nanoTime();
                            for (long s = seen + 1; s <= h; s++) {
                                Long at = committedAt.get(k.id() + "/" + s);
                                lags[(int) lagCount.getAndIncrement()] = at == null ? 0 : Math.max(0, now - at);
                            }
                            seen = h;
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            long t0 = System.nanoTime();
            List<Thread> writers = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                SessionKey k = keys.get(i);
                long epoch = epochs[i];
                writers.add(Thread.ofVirtual().start(() -> {
                    for (long h = 1; h < 1 + steps; h++) {
                        writer.append(AppendRequest.of(k, h, epoch, StoreFixtures.messages(k.id(), h + 1, 1)));
                        committedAt.put(k.id() + "/" + (h + 1), System.nanoTime());
                    }
                }));
            }
            for (Thread t : writers) {
                t.join();
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            for (Thread t : followers) {
                t.join();
            }
            long[] l = Arrays.copyOf(lags, (int) lagCount.get());
            Arrays.sort(l);
            if (l.length != sessions * steps) {
                throw new AssertionError(mode + ": the followers saw " + l.length + " of " + sessions * steps + " steps");
            }
            HeadNotifier n = writer.notifier();
            System.out.printf(Locale.ROOT, "round %d %-8s %d sessions x %d steps: %.0f steps/s, follower lag median %.2f ms p99 %.2f ms;"
                            + " sends %d, entries %d (%.1f per send), dropped %d, delivered to follower %d%n",
                    round, mode, sessions, steps, sessions * steps / secs, l[l.length / 2] / 1e6, l[(int) (l.length * 0.99)] / 1e6,
                    n == null ? 0 : n.sends(), n == null ? 0 : n.sent(), n == null ? 0.0 : (double) n.sent() / Math.max(1, n.sends()),
                    n == null ? 0 : n.dropped(), follower.listener().delivered());
        }
    }
}
