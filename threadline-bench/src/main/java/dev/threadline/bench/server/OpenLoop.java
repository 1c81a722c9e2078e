package dev.threadline.bench.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The open-model load generator: requests start at a constant arrival rate whatever the answers do
 * (a slow answer does not delay the next request), each on its own virtual thread, and each latency
 * is measured from the request's <em>intended</em> start time, so a request the generator itself
 * could only send late is counted as late (no coordinated omission). Also the closed loop that finds
 * the saturation rate. Thread-safe per run; one run at a time.
 */
final class OpenLoop {
    /** One request: turn number {@code n} of the run; returns normally on success, throws on any error. */
    interface Request {
        void send(long n) throws Exception;
    }

    /** Thrown by a {@link Request} to count an error under {@code kind} (e.g. "HTTP 429"). */
    static final class Failure extends Exception {
        final String kind;

        Failure(String kind, String detail) {
            super(kind + ": " + detail, null, false, false);
            this.kind = kind;
        }
    }

    /** Told of each request of an open loop as it ends (on the request's thread): for results by time. */
    interface Observer {
        /** Request {@code n}, meant to start at {@code intendedNanos}, ended at {@code endNanos}; {@code error} is null on success. */
        void ended(long n, long intendedNanos, long endNanos, String error);
    }

    private OpenLoop() {}

    /**
     * Sends {@code rate * duration} requests at {@code rate} per second, then waits up to {@code drain}
     * for those still running; any still unanswered then count as errors ("unanswered after drain").
     */
    static Measurement open(String name, double rate, Duration duration, Duration drain, Request request)
            throws InterruptedException {
        return open(name, rate, duration, drain, request, (n, intended, end, error) -> { });
    }

    /** {@link #open(String, double, Duration, Duration, Request)}, telling {@code observer} of each request as it ends. */
    static Measurement open(String name, double rate, Duration duration, Duration drain, Request request, Observer observer)
            throws InterruptedException {
        long count = Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
        long period = Math.round(1e9 / rate);
        ConcurrentHistogram hist = new ConcurrentHistogram(3);
        Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
        AtomicLong ok = new AtomicLong();
        AtomicLong lastEnd = new AtomicLong();
        AtomicLong maxLateStart = new AtomicLong();
        CountDownLatch done = new CountDownLatch((int) count);
        AtomicLong inWindow = new AtomicLong();
        long start = System.nanoTime() + 1_000_000;
        long windowFrom = start + (count * period) / 4;
        long windowTo = start + count * period;
        for (long n = 0; n < count; n++) {
            long intended = start + n * period;
            long wait;
            while ((wait = intended - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            maxLateStart.accumulateAndGet(-wait, Math::max);
            long turn = n;
            Thread.ofVirtual().start(() -> {
                try {
                    request.send(turn);
                    long end = System.nanoTime();
                    hist.recordValue(Math.max(1, (end - intended) / 1000));
                    ok.incrementAndGet();
                    lastEnd.accumulateAndGet(end, Math::max);
                    if (end >= windowFrom && end < windowTo) {
                        inWindow.incrementAndGet();
                    }
                    observer.ended(turn, intended, end, null);
                } catch (Failure f) {
                    errors.computeIfAbsent(f.kind, k -> new AtomicLong()).incrementAndGet();
                    observer.ended(turn, intended, System.nanoTime(), f.kind);
                } catch (Exception | Error e) {
                    errors.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
                    observer.ended(turn, intended, System.nanoTime(), e.getClass().getSimpleName());
                } finally {
                    done.countDown();
                }
            });
        }
        long sent = System.nanoTime();
        if (!done.await(drain.toNanos(), TimeUnit.NANOSECONDS)) {
            errors.computeIfAbsent("unanswered after drain", k -> new AtomicLong()).addAndGet(done.getCount());
        }
        long elapsed = Math.max(lastEnd.get(), sent) - start;
        return Measurement.of(name, rate, count, ok.get(), errors, hist, elapsed, maxLateStart.get(),
                inWindow.get() / ((windowTo - windowFrom) / 1e9));
    }

    /**
     * The closed loop: {@code clients} virtual threads send requests back to back for {@code duration};
     * returns the completed requests per second (the saturation estimate) and their latencies.
     */
    static Measurement closed(String name, int clients, Duration duration, Request request) throws InterruptedException {
        ConcurrentHistogram hist = new ConcurrentHistogram(3);
        Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
        AtomicLong ok = new AtomicLong();
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    try {
                        request.send(next.getAndIncrement());
                        hist.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
                        ok.incrementAndGet();
                    } catch (Failure f) {
                        errors.computeIfAbsent(f.kind, k -> new AtomicLong()).incrementAndGet();
                    } catch (Exception | Error e) {
                        errors.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long elapsed = System.nanoTime() - start;
        double rate = ok.get() / (elapsed / 1e9);
        return Measurement.of(name, rate, next.get(), ok.get(), errors, hist, elapsed, 0, rate);
    }

    /**
     * What one run measured.
     *
     * @param name           what ran
     * @param offeredPerSec  the arrival rate (closed loop: the achieved rate)
     * @param sent           requests started
     * @param ok             requests answered successfully
     * @param errors         the rest, by kind
     * @param achievedPerSec successful answers per second, from the first intended start to the last answer
     * @param p50Millis      latency percentiles of the successful answers, from the intended start
     * @param maxLateStartMillis how late the generator started its latest request (its own lag; 0 in a closed loop)
     * @param steadyPerSec   answers per second that ended in the last three quarters of the sending window: the
     *                       offered rate while the system keeps up, its capacity when it does not
     * @param loadAverage    the machine's one-minute load average when it ended (other work on the shared cores), or -1
     */
    record Measurement(String name, double offeredPerSec, long sent, long ok, Map<String, Long> errors, double achievedPerSec,
                       double p50Millis, double p90Millis, double p99Millis, double p999Millis, double maxMillis,
                       double meanMillis, double maxLateStartMillis, double steadyPerSec, double loadAverage) {
        static Measurement of(String name, double rate, long sent, long ok, Map<String, AtomicLong> errors, Histogram h,
                              long elapsedNanos, long lateNanos, double steady) {
            Map<String, Long> e = new TreeMap<>();
            errors.forEach((k, v) -> e.put(k, v.get()));
            boolean any = h.getTotalCount() > 0;
            return new Measurement(name, round(rate), sent, ok, e, round(ok / (elapsedNanos / 1e9)),
                    any ? ms(h.getValueAtPercentile(50)) : 0, any ? ms(h.getValueAtPercentile(90)) : 0,
                    any ? ms(h.getValueAtPercentile(99)) : 0, any ? ms(h.getValueAtPercentile(99.9)) : 0,
                    any ? ms(h.getMaxValue()) : 0, any ? round(h.getMean() / 1000) : 0, round(lateNanos / 1e6), round(steady), machineLoad());
        }

        /** No errors, and the answers kept up with the arrivals (at least 95 % of the rate) while it sent. */
        boolean keptUp() {
            return errorCount() == 0 && steadyPerSec >= 0.95 * offeredPerSec;
        }

        private static double machineLoad() {
            try {
                return Double.parseDouble(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0]);
            } catch (java.io.IOException | RuntimeException e) {
                return -1;
            }
        }

        long errorCount() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }

        private static double ms(long micros) {
            return round(micros / 1000.0);
        }

        private static double round(double v) {
            return Math.round(v * 1000) / 1000.0;
        }
    }
}
