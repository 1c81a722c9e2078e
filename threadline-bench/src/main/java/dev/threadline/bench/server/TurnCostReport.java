package dev.threadline.bench.server;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The Markdown of one {@link TurnCost} run: a row per session size, then the ratio of the turn's median
 * at the largest size to its median at the smallest (issue 39's acceptance: within 1.5×). Thread-safe.
 */
final class TurnCostReport {
    private TurnCostReport() {}

    /**
     * One size's figures (µs).
     *
     * @param size              the size asked for
     * @param messages          the messages each session held before its turns (the size in whole turns)
     * @param sessions          the sessions its turns went round
     * @param turns             turns timed
     * @param p50               turn wall time, median
     * @param p90               90th percentile
     * @param p99               99th percentile
     * @param threadCpu         the calling thread's CPU per turn, median (-1: not measured, over HTTP, where the calling
     *                          thread is the client's)
     * @param processCpu        the whole process's CPU over the timed turns, per turn (over HTTP the server's and the client's)
     * @param inStoreP50        the time inside the store's appends per turn, median (-1: not measured, over HTTP)
     * @param ownP50            the turn less the time inside the store, median (-1: not measured)
     * @param storeStepP50      one message appended straight to the store on a session of this size, median
     * @param journalHoldsTurns every session's journal held its prefill and every turn sent (checked after the run)
     * @param viewMessages      the messages in the model's view of the size's first session after the run (its context
     *                          policy's compaction holds older ones as one summary); -1 before the check
     * @param loadAverage       the machine's one-minute load average when its turns ended (other work on shared cores), or -1
     */
    record Row(int size, int messages, int sessions, int turns, double p50, double p90, double p99, double threadCpu,
               double processCpu, double inStoreP50, double ownP50, double storeStepP50, boolean journalHoldsTurns,
               int viewMessages, double loadAverage) {
        static Row of(int size, int messages, int sessions, long[] wall, long[] threadCpu, double processCpu, long[] inStore,
                      long[] storeSteps) {
            double inStoreP50 = -1;
            double ownP50 = -1;
            if (inStore != null) {
                long[] own = new long[wall.length];
                for (int i = 0; i < wall.length; i++) {
                    own[i] = wall[i] - inStore[i];
                }
                inStoreP50 = pct(inStore, 50);
                ownP50 = pct(own, 50);
            }
            return new Row(size, messages, sessions, wall.length, pct(wall, 50), pct(wall, 90), pct(wall, 99),
                    inStore == null ? -1 : pct(threadCpu, 50),
                    processCpu, inStoreP50, ownP50, pct(storeSteps, 50), false, -1,
                    Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100) / 100.0);
        }

        Row checked(boolean holds, int view) {
            return new Row(size, messages, sessions, turns, p50, p90, p99, threadCpu, processCpu, inStoreP50, ownP50, storeStepP50, holds,
                    view, loadAverage);
        }
    }

    /** The {@code p}th percentile (nearest rank) of {@code values}. */
    static double pct(long[] values, double p) {
        long[] v = values.clone();
        Arrays.sort(v);
        int rank = (int) Math.ceil(p / 100 * v.length);
        return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
    }

    static void print(TurnCost.Options o, List<Row> rows, PrintStream out) {
        String mode = o.http() ? "HTTP (threadline serve in this JVM, JSON turns; process CPU: server and client)"
                : "in-process (Session.submit)";
        String store = o.store() == null ? "SQLite file" : o.store().isSqlite() ? "SQLite " + o.store().file() : "memory";
        out.printf(Locale.ROOT, "### %s, %s, scripted model, one client, %d cores%n%n", mode, store,
                Runtime.getRuntime().availableProcessors());
        out.println("| messages | sessions | turns | turn p50 µs | p90 µs | p99 µs | CPU µs/turn (thread p50) | CPU µs/turn (process)"
                + " | in store µs/turn | runtime's own p50 µs | store step p50 µs | turn / store step | model view at the end | load average |");
        out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "| %,d | %d | %d | %.0f | %.0f | %.0f | %s | %.0f | %s | %s | %.0f | %.1f | %,d | %.2f |%n", r.messages(),
                    r.sessions(), r.turns(), r.p50(), r.p90(), r.p99(), dash(r.threadCpu()), r.processCpu(), dash(r.inStoreP50()),
                    dash(r.ownP50()), r.storeStepP50(), r.p50() / r.storeStepP50(), r.viewMessages(),
                    r.loadAverage());
        }
        out.println();
        Row first = rows.getFirst();
        Row last = rows.getLast();
        out.printf(Locale.ROOT, "turn p50 at %,d messages / at %,d: %.2f× (issue 39's acceptance: within 1.5×)%n", last.messages(),
                first.messages(), last.p50() / first.p50());
        if (last.ownP50() > 0 && first.ownP50() > 0) {
            out.printf(Locale.ROOT, "runtime's own p50 at %,d messages / at %,d: %.2f×%n", last.messages(), first.messages(),
                    last.ownP50() / first.ownP50());
        }
        out.printf(Locale.ROOT, "process CPU per turn at %,d messages / at %,d: %.2f×%n", last.messages(), first.messages(),
                last.processCpu() / first.processCpu());
        for (Row r : rows) {
            out.printf(Locale.ROOT, "journal at %,d messages: %s%n", r.messages(), r.journalHoldsTurns()
                    ? "every session holds its prefill and all its turns" : "A SESSION MISSES TURNS");
        }
    }

    private static String dash(double v) {
        return v < 0 ? "–" : String.format(Locale.ROOT, "%.0f", v);
    }
}
