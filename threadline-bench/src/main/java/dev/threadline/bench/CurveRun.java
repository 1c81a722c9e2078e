package dev.threadline.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
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
        Double load = coldLoad(c, session, length + steps);
        Long heap = heap(c.heldInMemory(session));
        progress.advance(1);
        return new CurvePoint(c.name(), length, steps, walPerStep, latency.medianMicros(), latency.p99Micros(), load,
                heap, c.serializedBytes(session));
    }

    private Double coldLoad(Contender c, String session, int expected) throws Exception {
        long[] times = new long[config.loadRepeats()];
        for (int i = 0; i < times.length; i++) {
            long t0 = System.nanoTime();
            OptionalInt n = c.coldLoad(session);
            times[i] = System.nanoTime() - t0;
            progress.advance(1);
            if (n.isEmpty()) {
                return null;
            }
            if (n.getAsInt() != expected) {
                throw new IllegalStateException(c.name() + " loaded " + n.getAsInt() + " messages of " + session
                        + ", expected " + expected);
            }
        }
        return Samples.medianMillis(times);
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
