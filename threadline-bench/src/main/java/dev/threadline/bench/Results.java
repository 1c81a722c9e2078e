package dev.threadline.bench;

import java.util.List;

/**
 * Everything one whole run measured, as written to {@code results.json}.
 *
 * @param machine     where it ran
 * @param command     the command line that produced it
 * @param config      the sizes it ran with
 * @param contenders  who was measured, what each guarantees and what each cannot do
 * @param curves      per contender and history length: bytes, latency, cold load, heap
 * @param throughput  per contender and concurrency: steps per second
 * @param raw         the physical limits on the same file type and durability
 * @param targets     Threadline's targets, as ratios from this run
 */
public record Results(Machine machine, String command, BenchConfig config, List<ContenderInfo> contenders,
                      List<CurvePoint> curves, List<ThroughputPoint> throughput, Raw raw, List<Target> targets) {

    /** The machine and JVM. */
    public record Machine(int cpus, long memoryBytes, long maxHeapBytes, String jdk, String os, String note) {
        static Machine here() {
            long mem = 0;
            if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean os) {
                mem = os.getTotalMemorySize();
            }
            return new Machine(Runtime.getRuntime().availableProcessors(), mem, Runtime.getRuntime().maxMemory(),
                    System.getProperty("java.vm.name") + " " + Runtime.version(),
                    System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                    "shared machine: other builds may run at the same time; figures are medians");
        }
    }

    /** A contender's name, durability and the parts of the work it cannot do. */
    public record ContenderInfo(String name, String durability, List<String> cannot) {}

    /**
     * The raw limits, each measured alternately with the Threadline figure it is compared with.
     *
     * @param insertsPerSecond        median over rounds: single-row insert + commit (fsync) per second, one connection
     * @param insertRounds            each round's rate
     * @param threadlineStepsPerSecond median over the same rounds: Threadline steps per second, one session
     *                                ({@code StateManager.update})
     * @param threadlineRounds        each round's rate
     * @param mailboxStepsPerSecond   the same through {@code Session.update} (the session's mailbox first)
     * @param mailboxRounds           each round's rate
     * @param readAndParse            per history length: plain JDBC select of a session's event rows + Jackson parse
     * @param insertsBesideThroughput per concurrency of the throughput run: the mean of raw rounds measured right
     *                                before and right after Threadline's point, which is compared with it
     */
    public record Raw(Double insertsPerSecond, List<Double> insertRounds, Double threadlineStepsPerSecond,
                      List<Double> threadlineRounds, Double mailboxStepsPerSecond, List<Double> mailboxRounds,
                      List<RawRead> readAndParse, List<Double> insertsBesideThroughput) {
        Raw withInsertsBesideThroughput(List<Double> rates) {
            return new Raw(insertsPerSecond, insertRounds, threadlineStepsPerSecond, threadlineRounds, mailboxStepsPerSecond,
                    mailboxRounds, readAndParse, List.copyOf(rates));
        }
    }

    /** Plain read-and-parse time of a session of {@code historyLength} messages. */
    public record RawRead(int historyLength, double millis) {}

    /** A target: the measured ratio, the bound, and whether it holds. */
    public record Target(String what, Double measured, double bound, String comparison, Boolean met, String detail) {}
}
