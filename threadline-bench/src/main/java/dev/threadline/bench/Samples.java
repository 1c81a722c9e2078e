package dev.threadline.bench;

import java.util.Arrays;

/** Latency samples in nanoseconds and their order statistics (nearest-rank). */
public final class Samples {
    private long[] values = new long[64];
    private int size;

    public void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    public int size() {
        return size;
    }

    /** The q-quantile (0..1) by nearest rank, in microseconds; NaN without samples. */
    public double quantileMicros(double q) {
        if (size == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * size);
        return sorted[Math.max(0, Math.min(size - 1, rank - 1))] / 1_000.0;
    }

    public double medianMicros() {
        return quantileMicros(0.5);
    }

    public double p99Micros() {
        return quantileMicros(0.99);
    }

    /** The median of a few timings, in milliseconds. */
    public static double medianMillis(long... nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? Double.NaN : sorted[(sorted.length - 1) / 2] / 1e6;
    }
}
