package dev.threadline.bench;

import dev.threadline.bench.kit.BenchMessage;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

/**
 * The physical write limit and Threadline's one-session step rate, measured in alternating rounds on
 * the same disk: a raw round of single-row insert+commit on a plain SQLite file, then a round of
 * Threadline steps on one session, and so on. Other work on a shared machine then disturbs both alike,
 * and the medians are compared.
 */
final class LimitRun {
    private LimitRun() {}

    /** Rounds of: raw inserts, steps through {@code direct} (StateManager), steps through {@code mailbox} (Session). */
    static Results.Raw run(BenchConfig config, ThreadlineContender direct, ThreadlineContender mailbox, Path rawFile,
                           List<Results.RawRead> reads, Progress progress) throws Exception {
        int rounds = Math.max(1, config.loadRepeats());
        int n = config.rawInserts();
        List<Double> raw = new ArrayList<>();
        List<Double> mine = new ArrayList<>();
        List<Double> queued = new ArrayList<>();
        progress.phase("raw limit vs Threadline, 1 session, " + rounds + " rounds", 3L * rounds * n);
        try (Connection c = RawLimits.openInsertTarget(rawFile)) {
            RawLimits.insertsPerSecond(c, "warm-up", Math.min(n, 50));
            steps(direct, "limit-warm-up", Math.min(n, 52));
            steps(mailbox, "limit-warm-up", Math.min(n, 52));
            for (int r = 0; r < rounds; r++) {
                raw.add(RawLimits.insertsPerSecond(c, "round-" + r, n));
                progress.advance(n);
                mine.add(steps(direct, "limit-" + r, n));
                progress.advance(n);
                queued.add(steps(mailbox, "limit-" + r, n));
                progress.advance(n);
            }
        }
        return new Results.Raw(median(raw), raw, median(mine), mine, median(queued), queued, reads, List.of());
    }

    /** {@code n} steps on a new session; returns steps per second. */
    private static double steps(ThreadlineContender c, String session, int n) throws Exception {
        c.prefill(session, List.of());
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            c.step(session, BenchMessage.at(i));
        }
        return n / ((System.nanoTime() - t0) / 1e9);
    }

    static double median(List<Double> xs) {
        List<Double> sorted = xs.stream().sorted().toList();
        int k = sorted.size();
        return k % 2 == 1 ? sorted.get(k / 2) : (sorted.get(k / 2 - 1) + sorted.get(k / 2)) / 2;
    }
}
