package dev.threadline.bench;

import dev.threadline.bench.kit.JitWarmUp;

import java.nio.file.Path;
import java.util.List;

/**
 * What a run of the shared-store benchmark ({@code threadline bench --store postgresql ...}) measures
 * and how much of it.
 *
 * @param stores          what to run on, in order: {@code postgresql}, {@code redis}, {@code redis-cluster} (servers the
 *                        benchmark starts) or URLs ({@code postgresql://…}, {@code redis://…}, {@code redis-cluster://…})
 * @param out             where shared-results.json and the plots go
 * @param historyLengths  the history lengths (messages) of the curves
 * @param stepsPerLength  Threadline steps, and as many raw floor writes, whose written and held bytes are measured at
 *                        each length
 * @param timedSteps      Threadline steps, and as many raw floor writes, timed at each length (alternately, after those)
 * @param warmUpMin       the least untimed steps and raw writes before the first length ({@link JitWarmUp})
 * @param warmUpMax       the most: the warm-up stops sooner once the JIT is quiet
 * @param rawOps          raw floor writes per throughput round (before and after each point), and the least
 *                        number of steps of a throughput point
 * @param concurrency     sessions writing at once in the throughput curve
 * @param loadRepeats     cold loads (and document reads) per history length; the median is reported
 * @param rounds          rounds of each throughput point, each between two raw floor rounds
 */
public record SharedConfig(List<String> stores, Path out, List<Integer> historyLengths, int stepsPerLength, int timedSteps,
                           int warmUpMin, int warmUpMax, int rawOps, List<Integer> concurrency, int loadRepeats, int rounds) {

    /** The run docs/benchmarks.md reports. */
    static SharedConfig full(List<String> stores, Path out) {
        return new SharedConfig(stores, out, List.of(10, 100, 1_000, 10_000), 200, 2_000, 2_000, 40_000, 400, List.of(1, 16, 256), 7, 3);
    }

    /** Fewer steps and rounds. */
    static SharedConfig quick(List<String> stores, Path out) {
        return new SharedConfig(stores, out, List.of(10, 100, 1_000, 10_000), 60, 300, 500, 10_000, 100, List.of(1, 16, 256), 3, 2);
    }

    /** A few seconds (the smoke test): numbers meaningless. */
    static SharedConfig smoke(List<String> stores, Path out) {
        return new SharedConfig(stores, out, List.of(10, 100), 8, 8, 8, 8, 8, List.of(1, 4), 1, 1);
    }
}
