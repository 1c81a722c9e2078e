package dev.threadline.bench;

import dev.threadline.bench.kit.StoreUrl;

import java.nio.file.Path;
import java.util.List;

/**
 * What one whole run measures and how much of it.
 *
 * @param store              where Threadline runs: {@code sqlite:/path/file.db} or {@code memory:}
 * @param out                where results.json and the SVG plots go
 * @param historyLengths     the history lengths (messages) each curve is measured at
 * @param stepsPerLength     durable steps measured at each history length (latency and bytes)
 * @param stepBudgetMillis   a contender stops measuring a length after this long (at least 10 steps): the slow
 *                           ones would otherwise take minutes at 10,000 messages
 * @param concurrency        concurrent sessions of the throughput curve
 * @param turnsPerSession    turns each session runs in the throughput curve
 * @param rawInserts         single-row insert-and-commit operations per round of the raw limit (and the least
 *                           number of steps of a throughput point)
 * @param loadRepeats        cold loads per history length, and rounds of the raw limit (medians are reported)
 * @param alternatives       whether to run LangGraph4j, Spring AI and LangChain4j too
 */
public record BenchConfig(StoreUrl store, Path out, List<Integer> historyLengths, int stepsPerLength,
                          long stepBudgetMillis, List<Integer> concurrency, int turnsPerSession, int rawInserts,
                          int loadRepeats, boolean alternatives) {

    /** The full run: the sizes docs/benchmarks.md reports. */
    public static BenchConfig full(StoreUrl store, Path out) {
        return new BenchConfig(store, out, List.of(10, 100, 1_000, 10_000), 200, 15_000, List.of(1, 16, 256), 8,
                400, 11, true);
    }

    /** A quicker run (about a minute or two): fewer steps and turns, same lengths. */
    public static BenchConfig quick(StoreUrl store, Path out) {
        return new BenchConfig(store, out, List.of(10, 100, 1_000, 10_000), 50, 4_000, List.of(1, 16, 256), 2,
                100, 5, true);
    }

    /** A smoke run of a few seconds (the test suite runs it): tiny sizes, numbers meaningless. */
    public static BenchConfig smoke(StoreUrl store, Path out) {
        return new BenchConfig(store, out, List.of(10, 100), 5, 1_000, List.of(1, 4), 1, 8, 1, true);
    }
}
