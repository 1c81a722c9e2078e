package dev.threadline.bench;

import dev.threadline.bench.kit.JitWarmUp;

import dev.threadline.bench.kit.BenchMessage;
import com.fasterxml.jackson.databind.JavaType;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * One shared store through the same method as the SQLite figures: first untimed steps and raw writes
 * until the JIT is quiet ({@link JitWarmUp}); then at each history length a session is
 * filled (batches of 100 messages); then a run of single-message steps ({@code RawSteps.update}: the
 * session's command gate, lease, compare-and-set fenced append, commit) between two reads of the
 * server's durable byte counter, and as many raw floor writes on the same server (one plain connection,
 * one durable single-row write each) between two more; then untimed steps on the warm-up's session again
 * until the JIT is quiet, and {@link SharedConfig#timedSteps} steps, each timed, one step
 * and one raw write in every round, in an order shuffled from round to round (so a disturbance of the
 * shared machine hits both, and neither always follows the other); then cold loads
 * alternately with reads of one JSON document of the same events; then throughput over 1, 16, 256
 * sessions, each point between two raw floor rounds ({@link SharedThroughput}). The steps themselves are
 * {@link SessionSteps}.
 */
final class SharedRun {
    private static final String TENANT = SessionInfo.DEFAULT_TENANT;

    private final SharedConfig config;
    private final Progress progress;
    private SessionSteps steps;

    SharedRun(SharedConfig config, Progress progress) {
        this.config = config;
        this.progress = progress;
    }

    SharedResults.Store run(SharedTarget target) throws Exception {
        long t0 = System.nanoTime();
        steps = new SessionSteps();
        SharedThroughput throughput = new SharedThroughput(config, progress, steps);
        double loadBefore = load();
        List<SharedResults.Point> curves = new ArrayList<>();
        List<SharedResults.Rate> rates = new ArrayList<>();
        List<SharedResults.Rate> variantRates = new ArrayList<>();
        String server = target.describe();
        JitWarmUp.Outcome warmed;
        JitWarmUp.Outcome variantWarmed;
        try (Threadline tl = Threadline.builder().store(target.openStore()).build();
             Threadline variant = target.variant() == null ? null : Threadline.builder().store(target.openVariant()).build();
             SharedTarget.RawFloor raw = target.openRawFloor()) {
            Warmer warmer = new Warmer(target, tl, raw, "warm-up");
            warmed = warmer.run(config.warmUpMin());
            variantWarmed = variant == null ? null : new Warmer(target, variant, raw, "v-warm-up").run(config.warmUpMin());
            for (int length : config.historyLengths()) {
                curves.add(curve(target, tl, variant, raw, length, warmer));
            }
            for (int c : config.concurrency()) {
                SharedResults.Rate[] point = throughput.point(target, tl, variant, raw, c);
                rates.add(point[0]);
                if (point[1] != null) {
                    variantRates.add(point[1]);
                }
            }
        }
        progress.finishLine();
        String rawFloor = target.kind().equals("postgresql")
                ? "one single-row INSERT (session_id, seq, payload: the same event JSON) in auto-commit, one connection"
                : "one RPUSH of the same event JSON onto a list key, one connection (Lettuce, synchronous)";
        return new SharedResults.Store(target.kind(), server, target.storeConnections(), rawFloor,
                target.writtenBytesMethod(), target.heldBytesMethod(), warmed.describe(),
                variantWarmed == null ? null : variantWarmed.describe(), curves, rates, target.variant(), variantRates,
                SharedTargets.of(target.kind(), curves, rates, target.variant(), variantRates), (System.nanoTime() - t0) / 1e9,
                loadBefore, load(), steps.redecided());
    }

    private SharedResults.Point curve(SharedTarget target, Threadline tl, Threadline variant, SharedTarget.RawFloor raw,
                                      int length, Warmer warmer) throws Exception {
        String id = "h" + length;
        int bytesSteps = config.stepsPerLength();
        int timedSteps = config.timedSteps();
        while (!BenchMessage.betweenTurns(length + bytesSteps + timedSteps)) {
            timedSteps++; // end on a whole turn: a cold load then finds the session idle
        }
        progress.phase(target.kind() + ": history " + length,
                length / 100 + 1 + 2L * (bytesSteps + timedSteps) + 2L * config.loadRepeats());
        Session s = SessionSteps.prefill(tl, id, length, () -> progress.advance(1));
        Session v = variant == null ? null : SessionSteps.prefill(variant, "v" + id, length, () -> progress.advance(1));
        String rawSession = "raw-" + length;
        List<String> payloads = SessionSteps.payloads(bytesSteps + timedSteps);
        int[] at = {length, 0}; // the session's next message, the raw floor's next row

        // bytes: a run of steps between two reads of the server's counter, then as many raw writes
        Long heldBefore = target.heldBytes(TENANT, id);
        Long rawHeldBefore = raw.heldBytes(rawSession);
        Long a = target.writtenBytes();
        for (int i = 0; i < bytesSteps; i++) {
            steps.step(s, at[0]++);
            progress.advance(1);
        }
        Long b = target.writtenBytes();
        Long heldAfter = target.heldBytes(TENANT, id);
        for (int i = 0; i < bytesSteps; i++) {
            raw.write(rawSession, at[1] + 1, payloads.get(at[1]));
            at[1]++;
            progress.advance(1);
        }
        Long c = target.writtenBytes();
        Long rawHeldAfter = raw.heldBytes(rawSession);

        // time: one step, one raw write (and the variant's step), in every round, each timed, so that the machine's
        // moods hit all alike, in an order shuffled from round to round: a part that always ran in one place (after
        // the raw write, say) would read that place's cost as its own; the events are made first, as the raw floor's
        // payloads are (what an agent decides is not the store's cost)
        Samples mine = new Samples();
        Samples floor = new Samples();
        Samples other = new Samples();
        int[] vat = {length};
        List<List<Event>> decided = SessionSteps.decided(at[0], timedSteps);
        List<List<Event>> variantDecided = SessionSteps.decided(vat[0], timedSteps);
        List<Integer> order = new ArrayList<>(v == null ? List.of(0, 2) : List.of(0, 1, 2));
        Random shuffle = new Random(length);
        // the filling and the last length's cold loads ran other code, which the JIT may still be compiling (on
        // cores the timed rounds share) or whose types may have undone some of the step's compiled code: the
        // warm-up's session takes steps again until the JIT is quiet before the timer starts
        JitWarmUp.Outcome rewarmed = warmer.run(0);
        long jitBefore = JitWarmUp.jitMillis();
        for (int i = 0; i < timedSteps; i++) {
            Collections.shuffle(order, shuffle);
            for (int part : order) {
                long t = System.nanoTime();
                switch (part) {
                    case 0 -> {
                        steps.step(s, at[0]++, decided.get(i));
                        mine.add(System.nanoTime() - t);
                    }
                    case 1 -> { // the variant's own session, in the same rounds
                        steps.step(v, vat[0]++, variantDecided.get(i));
                        other.add(System.nanoTime() - t);
                    }
                    default -> {
                        raw.write(rawSession, at[1] + 1, payloads.get(at[1]));
                        floor.add(System.nanoTime() - t);
                        at[1]++;
                    }
                }
            }
            progress.advance(2);
        }
        long jitAfter = JitWarmUp.jitMillis();
        Long jitMillis = jitBefore < 0 || jitAfter < 0 ? null : jitAfter - jitBefore;
        Double[] loads = coldLoads(target, raw, id, at[0]);
        return new SharedResults.Point(length, bytesSteps, perOp(sum(0L, a, b), bytesSteps), delta(heldBefore, heldAfter, bytesSteps),
                mine.medianMicros(), mine.p99Micros(), timedSteps, perOp(sum(0L, b, c), bytesSteps),
                delta(rawHeldBefore, rawHeldAfter, bytesSteps), floor.medianMicros(), floor.p99Micros(),
                v == null ? null : other.medianMicros(), v == null ? null : other.p99Micros(), rewarmed.rounds(), jitMillis,
                loads[0], loads[1]);
    }

    /** Median cold load and median document read, timed alternately after one untimed round of each. */
    private Double[] coldLoads(SharedTarget target, SharedTarget.RawFloor raw, String id, int messages) throws Exception {
        List<Event> events = new ArrayList<>();
        BenchMessage.range(0, messages).forEach(m -> events.addAll(m.toEvents()));
        JavaType type = Json.mapper().getTypeFactory().constructCollectionType(List.class, Event.class);
        raw.putDocument(id, Json.mapper().writerFor(type).writeValueAsString(events));
        long[] loads = new long[config.loadRepeats()];
        long[] reads = new long[config.loadRepeats()];
        for (int i = -1; i < loads.length; i++) {
            long t = System.nanoTime();
            int n;
            try (Threadline fresh = Threadline.builder().store(target.openStore()).build()) {
                n = fresh.defaultTenant().open(id).state().messages().size();
            }
            long load = System.nanoTime() - t;
            if (n != messages) {
                throw new IllegalStateException(target.kind() + ": loaded " + n + " messages of " + id + ", expected " + messages);
            }
            t = System.nanoTime();
            int parsed = target.readDocument(id);
            long read = System.nanoTime() - t;
            if (parsed != events.size()) {
                throw new IllegalStateException(target.kind() + ": the document of " + id + " held " + parsed + " events");
            }
            if (i >= 0) {
                loads[i] = load;
                reads[i] = read;
                progress.advance(2);
            }
        }
        return new Double[] {Samples.medianMillis(loads), Samples.medianMillis(reads)};
    }

    private static double load() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * A session of its own that takes untimed steps, each with a raw write, until the JIT is quiet
     * ({@link JitWarmUp}): first before any length, so that no measured length pays for compiling the
     * step's code (with a fixed 200 of each, as this run once had, the JIT was still compiling the step's
     * path through the first lengths: docs/benchmarks.md), then again before each length's timed rounds.
     * Each run continues the same session.
     */
    private final class Warmer {
        private final SharedTarget target;
        private final SharedTarget.RawFloor raw;
        private final Session session;
        private final String id;
        private final String payload;
        private int next;

        Warmer(SharedTarget target, Threadline tl, SharedTarget.RawFloor raw, String id) throws Exception {
            this.target = target;
            this.raw = raw;
            this.id = id;
            this.session = tl.defaultTenant().create(id, SessionConfig.DEFAULT);
            this.payload = SessionSteps.payloads(1).get(0);
        }

        /** At least {@code min} rounds, at most the configuration's bound. */
        JitWarmUp.Outcome run(int min) throws Exception {
            progress.phase(target.kind() + ": warming the JIT up (until it is quiet, at most " + config.warmUpMax() + " steps)",
                    2L * config.warmUpMax());
            JitWarmUp.Outcome o = JitWarmUp.run(min, config.warmUpMax(), i -> {
                steps.step(session, next);
                next++;
                raw.write(id, next, payload);
                progress.advance(2);
            });
            progress.advance(2L * (config.warmUpMax() - o.rounds()));
            return o;
        }
    }

    private static Long sum(Long acc, Long before, Long after) {
        return acc == null || before == null || after == null || after < before ? null : acc + (after - before);
    }

    private static Double perOp(Long total, int ops) {
        return total == null ? null : (double) total / ops;
    }

    private static Double delta(Long before, Long after, int ops) {
        return before == null || after == null ? null : (double) (after - before) / ops;
    }
}
