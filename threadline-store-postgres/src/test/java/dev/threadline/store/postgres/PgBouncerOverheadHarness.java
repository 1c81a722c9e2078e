package dev.threadline.store.postgres;

import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Not part of the suite (the name matches none of surefire's patterns): what going through pgbouncer
 * (transaction pooling, ADR 0048) costs one caller, against the same server directly: the p50 and p99
 * of one append (a step: its own transaction) and of one head read, with and without a schema (the
 * per-transaction {@code SET LOCAL search_path}), one thread, on the tests' server.
 * {@code ./test -q -pl threadline-store-postgres -am -Dtest=PgBouncerOverheadHarness -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dsteps=N}); output in the system-out of target/surefire-reports/TEST-*PgBouncerOverheadHarness.xml.
 */
class PgBouncerOverheadHarness {
    @Test
    void measure() {
        int steps = Integer.getInteger("steps", 2000);
        String direct = PgStores.url();
        String bounced = PgBouncers.url(PgStores.DB);
        for (int round = 0; round < 2; round++) { // the first round warms up
            for (boolean schema : new boolean[] {false, true}) {
                run(round, "direct", direct, schema, steps);
                run(round, "pgbouncer", bounced, schema, steps);
            }
        }
    }

    private static void run(int round, String how, String url, boolean schema, int steps) {
        PostgresStateStore.Options o = PostgresStateStore.Options.defaults().withMaxBatch(1);
        if (schema) {
            o = o.withSchema(PgStores.freshSchema("ovh"));
        }
        try (PostgresStateStore store = PostgresStateStore.open(url, o)) {
            SessionKey key = new SessionKey("t", "ovh_" + how + "_" + round + "_" + schema + "_" + System.nanoTime());
            long epoch = PgStores.leasedSession(store, key, 1, "w");
            long[] appends = new long[steps];
            long[] reads = new long[steps];
            for (int i = 0; i < steps; i++) {
                long t0 = System.nanoTime();
                store.append(AppendRequest.of(key, i + 1, epoch, StoreFixtures.messages(key.id(), i + 2, 1)));
                long t1 = System.nanoTime();
                store.head(key);
                reads[i] = System.nanoTime() - t1;
                appends[i] = t1 - t0;
            }
            if (round > 0) {
                System.out.printf("%-9s schema=%-5s append p50 %6.3f ms p99 %6.3f ms | head read p50 %6.3f ms p99 %6.3f ms%n",
                        how, schema, pct(appends, 50), pct(appends, 99), pct(reads, 50), pct(reads, 99));
            }
        }
    }

    private static double pct(long[] nanos, int p) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, s.length * p / 100)] / 1e6;
    }
}
