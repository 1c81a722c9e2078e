package dev.threadline.bench;

/**
 * Durable steps per second with {@code concurrency} sessions writing at once.
 *
 * @param contender      who ran it ("Threadline turns" = whole turns through {@code Session.submit})
 * @param concurrency    sessions running at once, one virtual thread each
 * @param steps          durable steps committed
 * @param seconds        wall time
 * @param stepsPerSecond steps / seconds
 */
public record ThroughputPoint(String contender, int concurrency, long steps, double seconds, double stepsPerSecond) {
    static ThroughputPoint of(String contender, int concurrency, long steps, long nanos) {
        double s = nanos / 1e9;
        return new ThroughputPoint(contender, concurrency, steps, s, steps / s);
    }
}
