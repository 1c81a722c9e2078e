package dev.threadline.bench;

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

    static Results.Raw run(BenchConfig config, ThreadlineContender threadline, Path rawFile, List<Results.RawRead> reads,
                           Progress progress) throws Exception {
        int rounds = Math.max(1, config.loadRepeats());
        int n = config.rawInserts();
        List<Double> raw = new ArrayList<>();
        List<Double> mine = new ArrayList<>();
        progress.phase("raw limit vs Threadline, 1 session, " + rounds + " rounds", 2L * rounds * n);
        try (Connection c = RawLimits.openInsertTarget(rawFile)) {
            RawLimits.insertsPerSecond(c, "warm-up", Math.min(n, 50));
            threadline.prefill("limit-warm-up", List.of());
            for (int i = 0; i < Math.min(n, 50); i++) {
                threadline.step("limit-warm-up", BenchMessage.at(i));
            }
            for (int r = 0; r < rounds; r++) {
                raw.add(RawLimits.insertsPerSecond(c, "round-" + r, n));
                progress.advance(n);
                String session = "limit-" + r;
                threadline.prefill(session, List.of());
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    threadline.step(session, BenchMessage.at(i));
                }
                mine.add(n / ((System.nanoTime() - t0) / 1e9));
                progress.advance(n);
            }
        }
        return new Results.Raw(median(raw), raw, median(mine), mine, reads);
    }

    static double median(List<Double> xs) {
        List<Double> sorted = xs.stream().sorted().toList();
        int k = sorted.size();
        return k % 2 == 1 ? sorted.get(k / 2) : (sorted.get(k / 2 - 1) + sorted.get(k / 2)) / 2;
    }
}
