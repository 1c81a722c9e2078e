package dev.threadline.bench;

/**
 * One contender measured at one history length. Null means "not measured": the contender cannot
 * do that part (see its {@code cannot} list) or the measure was disturbed (a checkpoint ran).
 *
 * @param contender        the contender's name
 * @param historyLength    messages in the session before the measured steps
 * @param steps            durable steps measured
 * @param walBytesPerStep  write-ahead log growth per step, measured from the file
 * @param medianMicros     median latency of one step
 * @param p99Micros        99th percentile latency of one step
 * @param coldLoadMillis   median time to load the session in a fresh runtime
 * @param rawReadMillis    Threadline on SQLite only: median plain-JDBC read-and-parse of the same rows, timed
 *                         alternately with the cold loads
 * @param heapBytes        heap held for the session (JOL), after the steps
 * @param serializedBytes  the session's messages in the contender's stored form
 */
public record CurvePoint(String contender, int historyLength, int steps, Double walBytesPerStep, double medianMicros,
                         double p99Micros, Double coldLoadMillis, Double rawReadMillis, Long heapBytes,
                         long serializedBytes) {

    /** Heap held per byte stored (null when either is unknown). */
    public Double heapPerSerializedByte() {
        return heapBytes == null || serializedBytes == 0 ? null : (double) heapBytes / serializedBytes;
    }
}
