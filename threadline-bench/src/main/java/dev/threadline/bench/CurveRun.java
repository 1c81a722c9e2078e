package dev.threadline.bench;

import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.bench.kit.SqliteFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.openjdk.jol.info.GraphLayout;

/**
 * Measures one contender at each history length: builds a session of that length, then times single
 * message steps (and the log's growth over them), cold loads and the heap the session holds.
 */
final class CurveRun {
    static {
        System.setProperty("jol.magicFieldOffset", "true"); // JDK 21+: Unsafe refuses record fields' offsets
    }

    private final BenchConfig config;
    private final Progress progress;

    CurveRun(BenchConfig config, Progress progress) {
        this.config = config;
        this.progress = progress;
    }

    List<CurvePoint> run(Contender c) throws Exception {
        List<CurvePoint> out = new ArrayList<>();
        for (int length : config.historyLengths()) {
            out.add(measure(c, length));
        }
        return out;
    }

    private CurvePoint measure(Contender c, int length) throws Exception {
        String session = "h" + length;
        progress.phase(c.name() + ": history " + length, config.stepsPerLength() + config.loadRepeats() + 1);
        c.prefill(session, BenchMessage.range(0, length));
        Optional<Path> db = c.database();
        long mainBefore = 0;
        long walBefore = 0;
        if (db.isPresent()) {
            if (!SqliteFiles.truncateWal(db.get())) {
                throw new IllegalStateException("could not empty the log of " + db.get() + " before measuring");
            }
            mainBefore = SqliteFiles.size(db.get());
            walBefore = SqliteFiles.walSize(db.get());
        }
        Samples latency = new Samples();
        long deadline = System.nanoTime() + config.stepBudgetMillis() * 1_000_000L;
        int steps = 0;
        // past the target count only to end on a whole turn: a cold load then finds the session idle
        while ((steps < config.stepsPerLength() && (steps < 10 || System.nanoTime() < deadline))
                || !BenchMessage.betweenTurns(length + steps)) {
            BenchMessage m = BenchMessage.at(length + steps);
            long t0 = System.nanoTime();
            c.step(session, m);
            latency.add(System.nanoTime() - t0);
            steps++;
            progress.advance(1);
        }
        Double walPerStep = null;
        if (db.isPresent() && SqliteFiles.size(db.get()) == mainBefore) { // else a checkpoint ran: growth is not all
            walPerStep = (double) (SqliteFiles.walSize(db.get()) - walBefore) / steps;
        }
        Path rawFrom = c instanceof ThreadlineContender && db.isPresent() ? db.get() : null;
        Double[] loads = coldLoad(c, session, length + steps, rawFrom);
        Long heap = heap(c.heldInMemory(session));
        progress.advance(1);
        return new CurvePoint(c.name(), length, steps, walPerStep, latency.medianMicros(), latency.p99Micros(), loads[0],
                loads[1], heap, c.serializedBytes(session));
    }

    /**
     * Median cold load and, when {@code rawFrom} is Threadline's file, the median raw read-and-parse of
     * the same rows, timed alternately after two untimed rounds of each (so that both meet the same
     * JIT state and the same disturbance from the machine).
     */
    private Double[] coldLoad(Contender c, String session, int expected, Path rawFrom) throws Exception {
        long events = 1 + BenchMessage.eventCount(expected);
        for (int warmUp = 0; warmUp < 2; warmUp++) {
            if (c.coldLoad(session).isEmpty()) {
                return new Double[] {null, null};
            }
            if (rawFrom != null) {
                RawLimits.readAndParseNanos(rawFrom, session, events);
            }
        }
        long[] loads = new long[config.loadRepeats()];
        long[] raws = new long[config.loadRepeats()];
        for (int i = 0; i < loads.length; i++) {
            long t0 = System.nanoTime();
            int n = c.coldLoad(session).orElseThrow();
            loads[i] = System.nanoTime() - t0;
            if (n != c.loadable(expected)) {
                throw new IllegalStateException(c.name() + " loaded " + n + " messages of " + session + ", expected " + c.loadable(expected));
            }
            if (rawFrom != null) {
                raws[i] = RawLimits.readAndParseNanos(rawFrom, session, events);
            }
            progress.advance(1);
        }
        return new Double[] {Samples.medianMillis(loads), rawFrom == null ? null : Samples.medianMillis(raws)};
    }

    /** Bytes reachable from {@code root} (JOL), or null when JOL cannot walk this JVM's heap. */
    static Long heap(Object root) {
        try {
            return GraphLayout.parseInstance(root).totalSize();
        } catch (RuntimeException | LinkageError e) {
            System.err.println("\nheap not measured (" + e + ")");
            return null;
        }
    }
}
