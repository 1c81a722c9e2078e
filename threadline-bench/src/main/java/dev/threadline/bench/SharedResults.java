package dev.threadline.bench;

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
     * @param curves             per history length
     * @param throughput         per concurrency
     * @param targets            the targets, as measured (reported, not enforced)
     * @param seconds            how long this store's run took
     */
    public record Store(String kind, String server, String connections, String rawFloor, String writtenBytesMethod,
                        String heldBytesMethod, List<Point> curves, List<Rate> throughput, List<Results.Target> targets,
                        double seconds) {}

    /**
     * One history length: Threadline's steps and the raw floor's writes, measured in alternating halves.
     *
     * @param historyLength          messages in the session before the measured steps
     * @param steps                  Threadline steps measured (one message each)
     * @param writtenBytesPerStep    bytes the server wrote durably per step (WAL / AOF growth)
     * @param heldBytesPerStep       growth of the space the session takes, per step
     * @param medianMicros           median step latency
     * @param p99Micros              99th percentile step latency
     * @param rawOps                 raw floor writes measured
     * @param rawWrittenBytesPerOp   bytes written durably per raw write
     * @param rawHeldBytesPerOp      growth of the raw floor's table or key per write
     * @param rawMedianMicros        median raw write latency
     * @param rawP99Micros           99th percentile raw write latency
     * @param coldLoadMillis         median: a new store and runtime, then the session's full state
     * @param documentReadMillis     median: one JSON document of the same events read on a new connection and parsed,
     *                               timed alternately with the cold loads
     */
    public record Point(int historyLength, int steps, Double writtenBytesPerStep, Double heldBytesPerStep,
                        double medianMicros, double p99Micros, int rawOps, Double rawWrittenBytesPerOp,
                        Double rawHeldBytesPerOp, double rawMedianMicros, double rawP99Micros, Double coldLoadMillis,
                        Double documentReadMillis) {}

    /**
     * Steps per second with {@code sessions} writing at once, beside the raw floor's single-connection
     * rate measured right before and right after.
     */
    public record Rate(int sessions, long steps, double seconds, double stepsPerSecond, double rawBefore, double rawAfter) {
        /** The mean of the raw rounds around the point. */
        public double rawAround() {
            return (rawBefore + rawAfter) / 2;
        }
    }
}
