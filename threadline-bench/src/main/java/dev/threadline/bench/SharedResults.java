package dev.threadline.bench;

import dev.threadline.bench.kit.JitWarmUp;

import java.util.List;

/**
 * Everything one run of the shared-store benchmark measured, as written to {@code shared-results.json}.
 *
 * @param machine  where it ran
 * @param command  the command line
 * @param config   the sizes
 * @param stores   one entry per store run
 */
public record SharedResults(Results.Machine machine, String command, SharedConfig config, List<Store> stores) {

    /**
     * One store's figures, each beside its raw floor on the same server in the same run.
     *
     * @param kind               postgresql, redis or redis-cluster
     * @param server             the server's version and durability settings
     * @param connections        how the Threadline store connects
     * @param rawFloor           what one raw floor operation is
     * @param writtenBytesMethod what the written bytes are
     * @param heldBytesMethod    what the held bytes are
     * @param warmUp             the untimed steps and raw writes before the first length ({@link JitWarmUp.Outcome#describe})
     * @param variantWarmUp      the same for the variant's runtime (null: no variant)
     * @param curves             per history length
     * @param throughput         per concurrency
     * @param variant            another configuration of the store measured for throughput too (null: none)
     * @param variantThroughput  its throughput, per concurrency, with its own raw rounds around each point
     * @param targets            the targets, as measured (reported, not enforced)
     * @param seconds            how long this store's run took
     * @param loadBefore         the machine's one-minute load average when this store's run began (the machine is shared)
     * @param loadAfter          and when it ended
     * @param redecidedAfterCommit steps the runtime decided again after the store reported a conflict, on a state that
     *                           already held the step's message (its first attempt had been committed): 0 expected
     */
    public record Store(String kind, String server, String connections, String rawFloor, String writtenBytesMethod,
                        String heldBytesMethod, String warmUp, String variantWarmUp, List<Point> curves, List<Rate> throughput,
                        String variant, List<Rate> variantThroughput,
                        List<Results.Target> targets,
                        double seconds, double loadBefore, double loadAfter,
                        long redecidedAfterCommit) {}

    /**
     * One history length: Threadline's steps and the raw floor's writes; bytes over a run of each, times
     * over steps and writes made alternately.
     *
     * @param historyLength          messages in the session before the measured steps
     * @param steps                  Threadline steps (one message each) whose bytes were measured, and as many raw writes
     * @param writtenBytesPerStep    bytes the server wrote durably per step (WAL / AOF growth)
     * @param heldBytesPerStep       growth of the space the session takes, per step
     * @param medianMicros           median step latency
     * @param p99Micros              99th percentile step latency
     * @param timedSteps             timed steps, and as many timed raw writes, made alternately
     * @param rawWrittenBytesPerOp   bytes written durably per raw write
     * @param rawHeldBytesPerOp      growth of the raw floor's table or key per write
     * @param rawMedianMicros        median raw write latency
     * @param rawP99Micros           99th percentile raw write latency
     * @param variantMedianMicros    the store's variant (see {@link Store#variant}): median step latency on a session of
     *                               its own of the same length, timed in the same rounds (null: no variant)
     * @param variantP99Micros       its 99th percentile
     * @param warmUpSteps            untimed steps (and raw writes) on the warm-up's own session right before the timed
     *                               rounds, until the JIT was quiet ({@link JitWarmUp})
     * @param jitMillis              the JIT's compilation time during the timed rounds, ms (null: the JVM does not say); near 0
     *                               when the code measured was compiled before them
     * @param coldLoadMillis         median: a new store and runtime, then the session's full state
     * @param documentReadMillis     median: one JSON document of the same events read on a new connection and parsed,
     *                               timed alternately with the cold loads
     */
    public record Point(int historyLength, int steps, Double writtenBytesPerStep, Double heldBytesPerStep,
                        double medianMicros, double p99Micros, int timedSteps, Double rawWrittenBytesPerOp,
                        Double rawHeldBytesPerOp, double rawMedianMicros, double rawP99Micros, Double variantMedianMicros,
                        Double variantP99Micros, int warmUpSteps, Long jitMillis, Double coldLoadMillis,
                        Double documentReadMillis) {}

    /**
     * Steps per second with {@code sessions} writing at once, in rounds, each beside the raw floor's
     * single-connection rate measured right before and right after it (the mean of the two).
     *
     * @param sessions       sessions writing at once, one virtual thread each
     * @param stepsPerRound  steps of one round (fresh sessions each round)
     * @param rounds         each round's steps per second
     * @param rawAround      each round's raw floor rate (writes per second, mean of the rounds before and after)
     * @param stepsPerSecond the median of the rounds
     * @param rawPerSecond   the median of the raw rates
     * @param ratio          the median of the per-round ratios (round / its raw floor)
     */
    public record Rate(int sessions, long stepsPerRound, List<Double> rounds, List<Double> rawAround, double stepsPerSecond,
                       double rawPerSecond, double ratio) {}
}
